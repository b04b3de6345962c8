// Draws the LLM-serving page's chart from the JSON the view embeds with json_script: each
// type's cost per million output tokens against its time to first token, CPU and GPU apart.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("llm-serving-data").textContent);
  const colours = { cpu: "#1f77b4", gpu: "#d62728" };
  const number = (value, digits) => value.toLocaleString("en", { maximumFractionDigits: digits });
  const tick = (value) => (PricebenchCharts.readableLogTick("logarithmic", value) ? number(value, 4) : "");
  const box = document.getElementById("llm-serving-chart").parentElement;
  box.style.height = Math.min(520, Math.max(300, box.clientWidth * 0.6)) + "px";

  new Chart(document.getElementById("llm-serving-chart"), {
    type: "scatter",
    data: {
      datasets: data.series.map((series) => ({
        label: series.label,
        data: series.points,
        backgroundColor: colours[series.mode] || "#7f7f7f",
        borderColor: colours[series.mode] || "#7f7f7f",
        pointRadius: 5,
      })),
    },
    options: {
      maintainAspectRatio: false,
      parsing: false,
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) => item.raw.label + ": " + number(item.raw.y, 4) + " " + data.currency
              + " per million tokens, " + data.percentile + " TTFT " + number(item.raw.x, 0) + " ms ("
              + number(item.raw.tokens, 0) + " tokens/s at concurrency " + item.raw.concurrency + ")",
          },
        },
      },
      scales: {
        x: {
          type: "logarithmic",
          title: { display: true, text: data.percentile + " time to first token (ms)" },
          ticks: { callback: tick },
        },
        y: {
          type: "logarithmic",
          title: { display: true, text: data.currency + " per million output tokens" },
          ticks: { callback: tick },
        },
      },
    },
  });
  document.body.dataset.chartsReady = "true";
})();
