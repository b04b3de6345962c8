// Draws the network page's curves from the JSON the view embeds with json_script.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("network-data").textContent);
  const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];

  function chart(id, key, axis) {
    const lines = data.lines.filter((line) => line[key]);
    return new Chart(document.getElementById(id), {
      type: "line",
      data: {
        datasets: lines.map((line, index) => ({
          label: line.label,
          data: line[key].map(([x, y]) => ({ x: x, y: y })),
          borderColor: palette[index % palette.length],
          backgroundColor: palette[index % palette.length],
        })),
      },
      options: {
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: { type: "linear", beginAtZero: true, title: { display: true, text: axis } },
          y: { beginAtZero: true, title: { display: true, text: "Gbit/s (median)" } },
        },
      },
    });
  }

  chart("processes-chart", "points", "processes run at once");
  chart("streams-chart", "streams", "streams (-P) of one process");
  document.body.dataset.chartsReady = "true";
})();
