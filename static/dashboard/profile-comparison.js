// Draws the comparison page's chart for a workload profile: hours of the median type's work a
// dollar buys, best first, one bar per type in its family's colour; a burstable type's other
// figure striped beside it. PricebenchComparison.draw() draws it again once family-picker.js
// has put a new answer in the page (as comparison.js does for a benchmark).
window.PricebenchComparison = (function () {
  "use strict";
  let chart = null;

  function draw() {
    if (chart) chart.destroy();
    document.body.dataset.chartsReady = "false";
    const data = JSON.parse(document.getElementById("chart-data").textContent);
    const units = window.PricebenchUnits;
    const tools = window.PricebenchCharts;
    const colour = Object.fromEntries(data.families.map((family) => [family.name, family.colour]));
    const hours = (value) => units.significant(value, data.rules, false, false)[0];
    document.body.dataset.exportName = data.profile;
    const datasets = [{
      label: "hours of the median type's work per dollar",
      data: data.bars.map((bar) => bar.per_dollar),
      // An estimated Fargate size (docs/fargate.md) is hatched, never plain.
      backgroundColor: data.bars.map((bar) => tools.fillOf(bar, colour[bar.family])),
    }];
    if (data.bars.some((bar) => bar.other !== null)) {
      datasets.push({
        label: data.basis === "sustained" ? "while CPU credits last" : "once CPU credits are spent",
        data: data.bars.map((bar) => bar.other),
        backgroundColor: data.bars.map((bar) => tools.stripes(colour[bar.family])),
        borderColor: data.bars.map((bar) => colour[bar.family]),
        borderWidth: 1,
      });
    }
    tools.fitRows("profile-chart", data.bars.length * datasets.length);
    chart = new Chart(document.getElementById("profile-chart"), {
      type: "bar",
      data: { labels: data.bars.map((bar) => bar.label), datasets: datasets },
      options: {
        indexAxis: "y",
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          legend: {
            position: "bottom",
            labels: {
              generateLabels: () => [
                ...data.families.map((family) => ({
                  text: family.name, fillStyle: family.colour, strokeStyle: family.colour, lineWidth: 0,
                })),
                ...tools.estimatedLegend(data.bars),
              ],
            },
          },
          tooltip: {
            callbacks: {
              label: (item) => {
                const bar = data.bars[item.dataIndex];
                return item.dataset.label + ": " + hours(item.raw) + " h (score " +
                  bar.score.toFixed(3) + ", $" + bar.usd_per_hour + "/h)";
              },
            },
          },
        },
        scales: {
          x: {
            beginAtZero: true,
            title: { display: true, text: "hours of the median type's work per dollar" },
            ticks: { callback: (value) => hours(value) },
          },
          y: { ticks: { autoSkip: false } },
        },
      },
    });
    document.body.dataset.chartsReady = "true";
  }

  draw();
  return { draw: draw };
})();
