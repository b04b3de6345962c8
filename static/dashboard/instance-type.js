// Draws an instance type's prices over time: one stepped line per region and purchase option.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("price-history-data").textContent);
  const units = window.PricebenchUnits;
  const colours = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#999999",
                   "#F0E442"];
  const regions = [...new Set(data.lines.map((line) => line.region))];
  const day = (text) => Date.parse(text + "T00:00:00Z");
  const box = document.getElementById("price-history-chart").parentElement;
  box.style.height = Math.min(420, Math.max(260, box.clientWidth * 0.6)) + "px";
  new Chart(document.getElementById("price-history-chart"), {
    type: "line",
    data: {
      datasets: data.lines.map((line) => ({
        label: line.label,
        data: line.points.map(([when, usd]) => ({ x: day(when), y: usd })),
        stepped: "after",
        spanGaps: false,
        // Colour: the region; dashes: spot.
        borderColor: colours[regions.indexOf(line.region) % colours.length],
        backgroundColor: colours[regions.indexOf(line.region) % colours.length],
        borderDash: line.purchase_option === "on_demand" ? [] : [6, 3],
        borderWidth: line.purchase_option === "on_demand" ? 2.5 : 1.5,
        pointRadius: 2,
      })),
    },
    options: {
      maintainAspectRatio: false,
      parsing: true,
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: {
            title: (items) => new Date(items[0].raw.x).toISOString().slice(0, 10),
            label: (item) => item.dataset.label + ": $" + item.raw.y + "/h",
          },
        },
      },
      scales: {
        x: {
          type: "linear",
          title: { display: true, text: "date" },
          ticks: { callback: (value) => new Date(value).toISOString().slice(0, 10), maxTicksLimit: 6 },
        },
        y: {
          beginAtZero: true,
          title: { display: true, text: "USD per hour" },
          ticks: { callback: (value) => "$" + units.significant(value, data.rules, false, false)[0] },
        },
      },
    },
  });
  document.body.dataset.chartsReady = "true";
})();
