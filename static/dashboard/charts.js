// What every chart page shares: a white background (for PNG export), the PNG buttons, sizes
// that follow the number of rows, and formatting through PricebenchUnits.
window.PricebenchCharts = (function () {
  "use strict";
  Chart.defaults.animation = false;
  Chart.defaults.font.family = "system-ui, sans-serif";

  // A saved PNG is drawn on white, not on the transparent canvas.
  const whiteBackground = {
    id: "whiteBackground",
    beforeDraw(chart) {
      const context = chart.ctx;
      context.save();
      context.globalCompositeOperation = "destination-over";
      context.fillStyle = "#fff";
      context.fillRect(0, 0, chart.width, chart.height);
      context.restore();
    },
  };
  Chart.register(whiteBackground);

  function savePng(canvasId) {
    const chart = Chart.getChart(canvasId);
    if (!chart) return;
    const link = document.createElement("a");
    link.href = chart.toBase64Image("image/png", 1);
    link.download = (document.body.dataset.exportName || "pricebench") + "-" + canvasId + ".png";
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-png]");
    if (button) savePng(button.dataset.png);
  });

  // Bar charts get a row of height per bar; the width is the container's, at any width.
  function fitRows(canvasId, rows) {
    const box = document.getElementById(canvasId).parentElement;
    box.style.height = Math.max(220, 26 * rows + 90) + "px";
  }

  // Cross-hatching for a second series in the same colour (colour-blind safe).
  function stripes(colour) {
    const tile = document.createElement("canvas");
    tile.width = tile.height = 8;
    const context = tile.getContext("2d");
    context.fillStyle = "#fff";
    context.fillRect(0, 0, 8, 8);
    context.strokeStyle = colour;
    context.lineWidth = 3;
    context.beginPath();
    context.moveTo(0, 8);
    context.lineTo(8, 0);
    context.stroke();
    return context.createPattern(tile, "repeat");
  }

  return { savePng: savePng, fitRows: fitRows, stripes: stripes };
})();
