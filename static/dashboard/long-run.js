// Draws a day of stress-ng at rising load on one instance type: the figure each hour as
// measured, the burstable model's expectation in standard mode (dashed), and the load asked
// (right axis), from the JSON the page embeds (selectors/subjects/long_run.py).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("long-run-data").textContent);
  const box = document.getElementById("long-run-chart").parentElement;
  box.style.height = Math.min(380, Math.max(240, box.clientWidth * 0.5)) + "px";
  const datasets = [
    { label: "measured (bogo ops/s)", data: data.measured, borderColor: "#0072B2", backgroundColor: "#0072B2", yAxisID: "ops" },
  ];
  if (data.burstable) {
    datasets.push({
      label: "model, standard mode (bogo ops/s)", data: data.standard_mode, borderColor: "#D55E00",
      backgroundColor: "#D55E00", borderDash: [6, 3], yAxisID: "ops",
    });
  }
  datasets.push({
    label: "load asked (%)", data: data.load_percent, borderColor: "#999999", backgroundColor: "#999999",
    stepped: "before", pointRadius: 0, yAxisID: "load",
  });
  new Chart(document.getElementById("long-run-chart"), {
    type: "line",
    data: { labels: data.hours.map((hour) => "h" + hour), datasets: datasets },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { position: "bottom" } },
      scales: {
        x: { title: { display: true, text: "hour of the run" } },
        ops: { beginAtZero: true, title: { display: true, text: "bogo ops/s" } },
        load: {
          position: "right", min: 0, max: 100, grid: { drawOnChartArea: false },
          title: { display: true, text: "load asked, % of each vCPU" },
        },
      },
    },
  });
  document.body.dataset.longRunReady = "true";
})();
