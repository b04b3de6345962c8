// Draws the comparison page's charts from the JSON the view embeds with json_script.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("chart-data").textContent);
  const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                   "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  const colour = (list, item) => palette[list.indexOf(item) % palette.length];
  const families = [...new Set(data.rows.map((row) => row.family))];
  const labels = data.rows.map((row) => row.label);
  const si = (value) => {
    const scales = [[1e15, "P"], [1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
    for (const [scale, prefix] of scales) {
      if (Math.abs(value) >= scale) return (value / scale).toPrecision(3) + " " + prefix;
    }
    return String(Number(value.toPrecision(3)));
  };
  // One row of the chart per instance type, whatever their number.
  const height = Math.max(320, 22 * labels.length + 80) + "px";
  document.querySelectorAll(".chart-box").forEach((box) => { box.style.height = height; });
  const categoryAxis = {
    type: "linear",
    reverse: true,
    min: -0.5,
    max: labels.length - 0.5,
    afterBuildTicks: (axis) => { axis.ticks = labels.map((_, index) => ({ value: index })); },
    ticks: { autoSkip: false, callback: (value) => labels[value] ?? "" },
    grid: { display: false },
  };

  const perDollar = [{
    label: data.higher_is_better ? "work per USD" : "jobs per USD",
    data: data.rows.map((row) => row.per_dollar),
    backgroundColor: data.rows.map((row) => colour(families, row.family)),
  }];
  if (data.rows.some((row) => row.sustained_per_dollar !== null)) {
    perDollar.push({
      label: "once CPU credits are spent",
      data: data.rows.map((row) => row.sustained_per_dollar),
      backgroundColor: "#bbb",
    });
  }
  new Chart(document.getElementById("per-dollar-chart"), {
    type: "bar",
    data: { labels: labels, datasets: perDollar },
    options: {
      indexAxis: "y",
      maintainAspectRatio: false,
      plugins: { legend: { display: perDollar.length > 1 } },
      scales: { x: { beginAtZero: true, ticks: { callback: si } } },
    },
  });

  // Every run is a point, coloured by its CPU model: one configuration whose tasks land on
  // different CPU generations shows its spread instead of one average.
  const cpuModels = [...new Set(data.rows.flatMap((row) => row.samples.map((sample) => sample[1])))];
  const datasets = cpuModels.map((cpu) => ({
    label: cpu,
    data: data.rows.flatMap((row, index) =>
      row.samples.filter((sample) => sample[1] === cpu).map((sample) => ({ x: sample[0], y: index }))),
    backgroundColor: colour(cpuModels, cpu),
    pointRadius: 5,
  }));
  datasets.push({
    label: "median",
    data: data.rows.map((row, index) => ({ x: row.median, y: index })),
    pointStyle: "line",
    pointRadius: 10,
    borderWidth: 3,
    borderColor: "#000",
    backgroundColor: "#000",
  });
  new Chart(document.getElementById("spread-chart"), {
    type: "scatter",
    data: { datasets: datasets },
    options: {
      maintainAspectRatio: false,
      plugins: { legend: { position: "bottom" } },
      scales: {
        y: categoryAxis,
        x: { beginAtZero: true, title: { display: true, text: data.unit }, ticks: { callback: si } },
      },
    },
  });
  document.body.dataset.chartsReady = "true";
})();
