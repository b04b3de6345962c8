// Draws the databases page's bars from the JSON the view embeds with json_script.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("databases-data").textContent);
  const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"];
  new Chart(document.getElementById("databases-chart"), {
    type: "bar",
    data: {
      labels: data.classes,
      datasets: data.engines.map((engine, index) => ({
        label: engine.label,
        data: engine.values,
        backgroundColor: palette[index % palette.length],
      })),
    },
    options: {
      maintainAspectRatio: false,
      scales: { y: { beginAtZero: true, title: { display: true, text: data.axis } } },
    },
  });
  document.body.dataset.chartsReady = "true";
})();
