// Draws the comparison page's charts from the JSON the view embeds with json_script.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("chart-data").textContent);
  const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                   "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  const families = [...new Set(data.rows.map((row) => row.family))];
  const familyColour = (family) => palette[families.indexOf(family) % palette.length];
  const labels = data.rows.map((row) => row.label);

  new Chart(document.getElementById("per-dollar-chart"), {
    type: "bar",
    data: {
      labels: labels,
      datasets: [{
        label: data.higher_is_better ? data.unit + " × h per USD" : "jobs per USD",
        data: data.rows.map((row) => row.per_dollar),
        backgroundColor: data.rows.map((row) => familyColour(row.family)),
      }],
    },
    options: {
      indexAxis: "y",
      maintainAspectRatio: false,
      plugins: { legend: { display: false } },
      scales: { x: { beginAtZero: true } },
    },
  });

  // One point per run, so a type whose tasks land on different CPUs shows its spread.
  const cpuModels = [...new Set(data.rows.flatMap((row) => Object.keys(row.cpu_models)))];
  const points = data.rows.flatMap((row, index) =>
    row.values.map((value) => ({ x: value, y: index, cpu: Object.keys(row.cpu_models) })));
  new Chart(document.getElementById("spread-chart"), {
    type: "scatter",
    data: {
      datasets: [
        {
          label: "run",
          data: points.map((point) => ({ x: point.x, y: point.y })),
          backgroundColor: points.map((point) =>
            palette[cpuModels.indexOf(point.cpu.length === 1 ? point.cpu[0] : "") % palette.length] || "#444"),
          pointRadius: 5,
        },
        {
          label: "median",
          data: data.rows.map((row, index) => ({ x: row.median, y: index })),
          pointStyle: "line",
          pointRadius: 12,
          borderWidth: 3,
          borderColor: "#000",
        },
      ],
    },
    options: {
      maintainAspectRatio: false,
      scales: {
        y: {
          type: "linear",
          reverse: true,
          min: -0.5,
          max: labels.length - 0.5,
          ticks: { stepSize: 1, autoSkip: false, callback: (value) => labels[value] ?? "" },
        },
        x: { beginAtZero: true, title: { display: true, text: data.unit } },
      },
    },
  });
  document.body.dataset.chartsReady = "true";
})();
