// Draws compare's chart from the JSON the view embeds with json_script: on each benchmark,
// what a dollar buys on each type against the baseline (100%), one bar per type in its
// family's colour, a second type of the same family striped, an estimated figure hatched.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("compare-data").textContent);
  const tools = window.PricebenchCharts;
  const percent = (ratio) => Math.round(ratio * 100) + "%";
  document.body.dataset.exportName = "compare_" + data.types.map((type) => type.name).join("_");
  // An estimated figure (a Fargate size no task measured there) is hatched, and its type's
  // name says "(estimated)".
  const datasets = data.types.map((type, index) => ({
    label: type.name + (type.name === data.baseline ? " (baseline)" : "")
      + (type.estimated ? " (estimated)" : ""),
    data: data.lines.map((line) => line.relative_per_dollar[index]),
    backgroundColor: data.lines.map((line) => (line.estimated[index]
      ? tools.hatch(type.colour) : type.striped ? tools.stripes(type.colour) : type.colour)),
    borderColor: type.colour,
    borderWidth: type.striped ? 1 : 0,
  }));
  // A bar of about 8 px per type, as fitRows gives 26 px to a row.
  tools.fitRows("compare-chart", Math.ceil(data.lines.length * (8 * data.types.length + 10) / 26));
  new Chart(document.getElementById("compare-chart"), {
    type: "bar",
    data: { labels: data.lines.map((line) => line.label), datasets: datasets },
    options: {
      indexAxis: "y",
      maintainAspectRatio: false,
      plugins: {
        legend: { position: "top" },
        tooltip: {
          callbacks: {
            label: (item) => item.dataset.label + ": " + percent(item.raw) + " per dollar"
              + (data.lines[item.dataIndex].estimated[item.datasetIndex] ? " (estimated)" : ""),
            afterTitle: (items) => {
              const params = data.lines[items[0].dataIndex].params;
              return Object.entries(params).map(([name, value]) => name + "=" + value).join(", ");
            },
          },
        },
      },
      scales: {
        x: {
          type: data.axis,
          beginAtZero: data.axis === "linear",
          title: { display: true, text: "per dollar against " + data.baseline },
          ticks: {
            callback: (value) => (tools.readableLogTick(data.axis, value) ? percent(value) : ""),
          },
        },
        // On a narrow chart a benchmark's name breaks after its tool ("openssl:" / "sha256").
        y: {
          ticks: {
            autoSkip: false,
            callback: function (value) {
              const label = this.getLabelForValue(value);
              return this.chart.width < 600 ? label.split(/(?<=:)/) : label;
            },
          },
        },
      },
    },
  });
  document.body.dataset.chartsReady = "true";
})();
