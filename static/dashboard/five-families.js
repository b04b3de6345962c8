// Draws the landing page's "five side by side" chart: the cheapest vCPU-hour and GiB-hour of
// Fargate, t2, c7g, c7a and c7i, on-demand and spot (and a burstable family's vCPU-hour at
// what it sustains), from the JSON the view embeds with json_script (dashboard/charts.py
// unit_price_chart).
(function () {
  "use strict";
  const element = document.getElementById("five-families-data");
  const canvas = document.getElementById("five-families-chart");
  if (!element || !canvas) return;
  const data = JSON.parse(element.textContent);
  const tools = window.PricebenchCharts;
  // Okabe and Ito's blue, vermillion and bluish green: vCPU-hours, GiB-hours and sustained
  // vCPU-hours; spot hatched.
  const colours = { vcpu: "#0072B2", gib: "#D55E00", sustained: "#009E73" };
  const usd = (value) => (value === null ? "no price" : "$" + Number(value.toPrecision(4)) + "/h");

  const datasets = data.series.map((series) => {
    const colour = colours[series.key.split("_")[0]];
    const spot = series.key.endsWith("spot");
    return {
      label: series.label,
      data: series.values,
      backgroundColor: spot && tools ? tools.stripes(colour) : colour,
      borderColor: colour,
      borderWidth: spot ? 1 : 0,
      // Only burstable families have a sustained vCPU-hour: no empty slot for the others.
      skipNull: true,
    };
  });

  if (tools) tools.fitRows("five-families-chart", Math.ceil(data.labels.length * 1.5));
  new Chart(canvas, {
    type: "bar",
    data: { labels: data.labels, datasets: datasets },
    options: {
      indexAxis: "y",
      maintainAspectRatio: false,
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: { label: (item) => item.dataset.label + ": " + usd(item.raw) },
        },
      },
      scales: {
        x: {
          beginAtZero: true,
          title: { display: true, text: "USD per hour, cheapest type of each (" + data.region + ", " + data.at + ")" },
        },
      },
    },
  });
  canvas.dataset.drawn = "true";
  drawOptions();

  // Every way of paying the cheapest vCPU-hour of each family: one series per option with a
  // price, in a colour of its own (Okabe and Ito's).
  function drawOptions() {
    const optionsElement = document.getElementById("family-options-data");
    const optionsCanvas = document.getElementById("family-options-chart");
    if (!optionsElement || !optionsCanvas) return;
    const options = JSON.parse(optionsElement.textContent);
    const palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];
    if (tools) tools.fitRows("family-options-chart", Math.ceil(options.labels.length * options.series.length * 0.75));
    new Chart(optionsCanvas, {
      type: "bar",
      data: {
        labels: options.labels,
        datasets: options.series.map((series, index) => ({
          label: series.label,
          data: series.values,
          backgroundColor: palette[index % palette.length],
        })),
      },
      options: {
        indexAxis: "y",
        maintainAspectRatio: false,
        plugins: {
          legend: { position: "bottom" },
          tooltip: { callbacks: { label: (item) => item.dataset.label + ": " + usd(item.raw) + " per vCPU" } },
        },
        scales: {
          x: {
            beginAtZero: true,
            title: { display: true, text: "USD per vCPU-hour, cheapest type of each (" + options.region + ", " + options.at + ")" },
          },
        },
      },
    });
    optionsCanvas.dataset.drawn = "true";
  }
})();
