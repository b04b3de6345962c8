// Draws an instance type's memory by working-set size: read, write and copy bandwidth (left
// axis) and the latency of one load (right axis), both logarithmic, from the JSON the page
// embeds (selectors/subjects/memory_curves.py).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("memory-data").textContent);
  const colours = { read: "#0072B2", write: "#009E73", copy: "#E69F00" };
  const size = (kb) => (kb >= 1048576 ? kb / 1048576 + " GiB" : kb >= 1024 ? kb / 1024 + " MiB" : kb + " KiB");
  const box = document.getElementById("memory-chart").parentElement;
  box.style.height = Math.min(400, Math.max(260, box.clientWidth * 0.5)) + "px";
  const datasets = Object.entries(data.bandwidths).map(([name, values]) => ({
    label: name + " (B/s)",
    data: values,
    borderColor: colours[name],
    backgroundColor: colours[name],
    yAxisID: "bandwidth",
    spanGaps: true,
  }));
  datasets.push({
    label: "latency (s)",
    data: data.latency,
    borderColor: "#D55E00",
    backgroundColor: "#D55E00",
    borderDash: [6, 3],
    yAxisID: "latency",
    spanGaps: true,
  });
  const readable = (value) => window.PricebenchCharts.readableLogTick("logarithmic", value);
  const plain = (value) => (value === null ? "—" : Number(value).toPrecision(3));
  new Chart(document.getElementById("memory-chart"), {
    type: "line",
    data: { labels: data.sizes_kb.map(size), datasets: datasets },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { position: "bottom" },
        tooltip: { callbacks: { label: (item) => item.dataset.label + ": " + plain(item.raw) } },
      },
      scales: {
        x: { title: { display: true, text: "working-set size" } },
        bandwidth: {
          type: "logarithmic",
          title: { display: true, text: "GB per second" },
          ticks: { callback: (value) => (readable(value) ? Number((value / 1e9).toPrecision(3)) + " GB/s" : "") },
        },
        latency: {
          type: "logarithmic",
          position: "right",
          grid: { drawOnChartArea: false },
          title: { display: true, text: "nanoseconds per load" },
          ticks: { callback: (value) => (readable(value) ? Number((value * 1e9).toPrecision(3)) + " ns" : "") },
        },
      },
    },
  });
  document.body.dataset.memoryReady = "true";
})();
