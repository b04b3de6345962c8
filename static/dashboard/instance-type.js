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
  drawOptions();
  document.body.dataset.chartsReady = "true";

  // Each way to pay for the type in one region, cheapest first: the effective hourly price
  // as sold and, below always-on use, what an hour of use costs over a year at that use.
  function drawOptions() {
    const element = document.getElementById("options-data");
    if (!element) return;
    const options = JSON.parse(element.textContent);
    const dollars = (value) => "$" + units.significant(value, options.rules, false, false)[0];
    const datasets = [{
      label: "effective USD per hour",
      data: options.usd_per_hour,
      backgroundColor: "#0072B2",
    }];
    if (!options.always_on) {
      datasets.push({
        label: "USD per hour of use (a year at " + options.hours_per_month + " h a month)",
        data: options.usd_per_hour_used,
        backgroundColor: window.PricebenchCharts.stripes("#D55E00"),
        borderColor: "#D55E00",
        borderWidth: 1,
      });
    }
    window.PricebenchCharts.fitRows("options-chart", options.labels.length * datasets.length);
    new Chart(document.getElementById("options-chart"), {
      type: "bar",
      data: { labels: options.labels, datasets: datasets },
      options: {
        indexAxis: "y",
        maintainAspectRatio: false,
        plugins: {
          legend: { position: "bottom" },
          tooltip: { callbacks: { label: (item) => item.dataset.label + ": " + dollars(item.raw) } },
        },
        scales: {
          x: {
            beginAtZero: true,
            title: { display: true, text: "USD per hour" },
            ticks: { callback: (value) => dollars(value) },
          },
          y: { title: { display: true, text: "purchase option" } },
        },
      },
    });
  }
})();
