// Draws the volume page's charts from the JSON the view embeds with json_script.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("volume-data").textContent);
  const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];
  const priced = data.volumes.filter((volume) => volume.usd_per_month !== null);
  const parts = [...new Set(priced.flatMap((volume) => Object.keys(volume.parts)))];

  new Chart(document.getElementById("cost-chart"), {
    type: "bar",
    data: {
      labels: priced.map((volume) => volume.label),
      datasets: parts.map((part, index) => ({
        label: part,
        data: priced.map((volume) => volume.parts[part] ?? 0),
        backgroundColor: palette[index % palette.length],
      })),
    },
    options: {
      indexAxis: "y",
      maintainAspectRatio: false,
      scales: {
        x: { stacked: true, beginAtZero: true, title: { display: true, text: "USD per month" } },
        y: { stacked: true },
      },
    },
  });

  // A step appears as two points at the same time: the line drops straight down.
  const charted = data.volumes.filter((volume) => volume.delivered !== null);
  new Chart(document.getElementById("burst-chart"), {
    type: "line",
    data: {
      datasets: charted.map((volume, index) => ({
        label: volume.label,
        data: volume.delivered.map(([seconds, iops]) => ({ x: seconds / 60, y: iops })),
        borderColor: palette[index % palette.length],
        backgroundColor: palette[index % palette.length],
        pointRadius: 0,
        borderWidth: 2,
      })),
    },
    options: {
      maintainAspectRatio: false,
      parsing: false,
      scales: {
        x: { type: "linear", min: 0, max: data.seconds / 60, title: { display: true, text: "minutes" } },
        y: { beginAtZero: true, title: { display: true, text: "IOPS delivered" } },
      },
    },
  });
  document.body.dataset.chartsReady = "true";
})();
