// Draws an instance type's stress-ng figures at every load: bogo ops per second by workers
// (bars) and each worker's work against one worker alone (a line on its own axis), from the
// JSON the page embeds (selectors/subjects/cpu_scaling.py).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("cpu-scaling-data").textContent);
  const points = data.points;
  const box = document.getElementById("cpu-scaling-chart").parentElement;
  box.style.height = Math.min(380, Math.max(240, box.clientWidth * 0.5)) + "px";
  new Chart(document.getElementById("cpu-scaling-chart"), {
    data: {
      labels: points.map((point) => String(point.workers)),
      datasets: [
        {
          type: "bar",
          label: "bogo ops/s",
          data: points.map((point) => point.ops_per_second),
          backgroundColor: "#0072B2",
          yAxisID: "y",
        },
        {
          type: "line",
          label: "each worker against one alone",
          data: points.map((point) => (point.efficiency === null ? null : point.efficiency * 100)),
          borderColor: "#D55E00",
          backgroundColor: "#D55E00",
          yAxisID: "share",
        },
      ],
    },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: {
            label: (item) => {
              const point = points[item.dataIndex];
              if (item.datasetIndex === 1) return item.dataset.label + ": " + item.raw.toFixed(0) + "%";
              const perDollar = point.per_dollar === null ? ""
                : "; " + Number(point.per_dollar.toPrecision(3)).toLocaleString() + " per dollar";
              return point.ops_per_second.toLocaleString() + " bogo ops/s" + perDollar;
            },
          },
        },
      },
      scales: {
        x: { title: { display: true, text: "workers" + (data.vcpus ? " (of " + data.vcpus + " vCPUs)" : "") } },
        y: { beginAtZero: true, title: { display: true, text: "bogo ops/s" } },
        share: {
          position: "right",
          beginAtZero: true,
          suggestedMax: 100,
          grid: { drawOnChartArea: false },
          title: { display: true, text: "% of one worker's work" },
        },
      },
    },
  });
  document.body.dataset.scalingReady = "true";
})();
