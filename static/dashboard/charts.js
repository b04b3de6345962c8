// What every chart page shares: a white background, the PNG and CSV downloads, sizes
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

  // A download's name says what it holds and when: pricebench_<question>_<chart>_<date>.
  function fileName(canvasId, extension) {
    const question = document.body.dataset.exportName || document.title.split(" ·")[0];
    const today = new Date().toISOString().slice(0, 10);
    const part = (text) => text.replace(/[^a-z0-9.:-]+/gi, "_").replace(/:/g, "-");
    return ["pricebench", part(question), part(canvasId), today].join("_") + "." + extension;
  }

  function download(href, name) {
    const link = document.createElement("a");
    link.href = href;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  // The figure's caption above the chart and the page's credit and address below it, so that
  // a saved image says what it shows and where its figures come from.
  function savePng(canvasId) {
    const chart = Chart.getChart(canvasId);
    if (!chart) return;
    const figure = chart.canvas.closest("figure");
    const caption = figure && figure.querySelector("figcaption");
    const title = caption ? caption.textContent.replace(/\s+/g, " ").trim() : "";
    const credit = document.querySelector(".credit");
    const source = ["pricebench: " + window.location.href,
                    credit ? credit.textContent.replace(/\s+/g, " ").trim() : ""];
    const ratio = chart.currentDevicePixelRatio || 1;
    const width = chart.canvas.width;
    const line = 18 * ratio;
    const image = document.createElement("canvas");
    const context = image.getContext("2d");
    const headFont = "bold " + (13 * ratio) + "px system-ui, sans-serif";
    const footFont = (11 * ratio) + "px system-ui, sans-serif";
    const room = width - 16 * ratio;
    // Lines that fit the image in the font they are drawn in; a word wider than the image (an
    // address) is cut where it reaches the edge and goes on on the next line.
    const wrap = (font) => (text) => {
      context.font = font;
      const fits = (candidate) => context.measureText(candidate).width <= room;
      const lines = [];
      let current = "";
      text.split(" ").forEach((word) => {
        const next = current ? current + " " + word : word;
        if (fits(next)) {
          current = next;
          return;
        }
        if (current) lines.push(current);
        current = "";
        for (const character of word) {
          if (current && !fits(current + character)) {
            lines.push(current);
            current = "";
          }
          current += character;
        }
      });
      if (current) lines.push(current);
      return lines;
    };
    const head = title ? wrap(headFont)(title) : [];
    const foot = source.filter(Boolean).flatMap(wrap(footFont));
    image.width = width;
    image.height = chart.canvas.height + (head.length + foot.length + 1) * line;
    context.fillStyle = "#fff";
    context.fillRect(0, 0, image.width, image.height);
    context.fillStyle = "#111";
    context.font = headFont;
    head.forEach((text, index) => context.fillText(text, 8 * ratio, (index + 1) * line));
    const top = (head.length + 0.5) * line;
    context.drawImage(chart.canvas, 0, top);
    context.fillStyle = "#444";
    context.font = footFont;
    foot.forEach((text, index) =>
      context.fillText(text, 8 * ratio, top + chart.canvas.height + (index + 1) * line));
    download(image.toDataURL("image/png"), fileName(canvasId, "png"));
  }

  // The mark the best bar's label carries on a chart; a CSV's labels go without it.
  const BEST_MARK = "★ ";

  // On a logarithmic axis only 1, 2 and 5 times a power of ten are written, so that the
  // labels never overlap.
  function readableLogTick(type, value) {
    return type !== "logarithmic"
      || [1, 2, 5].includes(Math.round(value / Math.pow(10, Math.floor(Math.log10(value)))));
  }

  // The chart's own figures as CSV: one row per label (bar and category charts, a floating
  // bar's two ends in two columns, a bar's error bars as its low and high), or one row per
  // point (scatter and line charts).
  function chartCsv(chart) {
    const quote = (value) => {
      const text = value === null || value === undefined ? "" : String(value);
      return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
    };
    const titleOf = (axis) => {
      const scale = chart.options.scales && chart.options.scales[axis];
      return (scale && scale.title && scale.title.text) || axis;
    };
    const datasets = chart.data.datasets.filter((dataset) => !dataset.hidden);
    const category = chart.options.indexAxis === "y" ? "y" : "x";
    const axis = category === "y" ? "x" : "y";
    // A bar with error bars ({x, xMin, xMax}, no category coordinate): its figure and its
    // interval's two ends.
    const barred = (value) => value !== null && typeof value === "object" && !Array.isArray(value)
      && (axis + "Min") in value && !(category in value);
    const pointShaped = datasets.some((dataset) =>
      dataset.data.some((value) => value !== null && typeof value === "object"
                        && !Array.isArray(value) && !barred(value)));
    let rows;
    if (!pointShaped && chart.data.labels && chart.data.labels.length) {
      const ranged = datasets.map((dataset) => dataset.data.some(Array.isArray));
      const withBars = datasets.map((dataset) => dataset.data.some(barred));
      const header = [titleOf(category) === category ? "label" : titleOf(category)];
      datasets.forEach((dataset, index) => {
        const name = dataset.label || "value";
        if (ranged[index]) header.push(name + " (from)", name + " (to)");
        else if (withBars[index]) header.push(name, name + " (low)", name + " (high)");
        else header.push(name);
      });
      rows = [header].concat(chart.data.labels.map((label, row) => {
        const text = Array.isArray(label) ? label.join(" ") : String(label);
        const cells = [text.startsWith(BEST_MARK) ? text.slice(BEST_MARK.length) : text];
        datasets.forEach((dataset, index) => {
          const value = dataset.data[row];
          if (ranged[index]) cells.push(...(Array.isArray(value) ? value : [value, value]));
          else if (withBars[index]) {
            const point = value && typeof value === "object" ? value : { [axis]: value };
            cells.push(point[axis], point[axis + "Min"], point[axis + "Max"]);
          } else cells.push(value);
        });
        return cells;
      }));
    } else {
      const extra = [];
      datasets.forEach((dataset) => dataset.data.forEach((point) => {
        if (point && typeof point === "object") {
          Object.keys(point).forEach((key) => {
            if (!["x", "y"].includes(key) && !extra.includes(key)
                && typeof point[key] !== "object") extra.push(key);
          });
        }
      }));
      rows = [["series", titleOf("x"), titleOf("y")].concat(extra)];
      datasets.forEach((dataset) => dataset.data.forEach((point, index) => {
        if (point === null || point === undefined) return;
        if (typeof point === "object") {
          rows.push([dataset.label, point.x, point.y].concat(extra.map((key) => point[key])));
        } else {
          rows.push([dataset.label, (chart.data.labels || [])[index], point]);
        }
      }));
    }
    return rows.map((cells) => cells.map(quote).join(",")).join("\r\n") + "\r\n";
  }

  function saveCsv(canvasId) {
    const chart = Chart.getChart(canvasId);
    if (!chart) return;
    const blob = new Blob([chartCsv(chart)], { type: "text/csv" });
    const href = URL.createObjectURL(blob);
    download(href, fileName(canvasId, "csv"));
    setTimeout(() => URL.revokeObjectURL(href), 1000);
  }

  document.addEventListener("click", (event) => {
    const png = event.target.closest("[data-png]");
    if (png) savePng(png.dataset.png);
    const csv = event.target.closest("[data-csv]");
    if (csv) saveCsv(csv.dataset.csv);
  });

  // Below this width (a phone) a long category label is written on two lines.
  const NARROW = 600;

  // Bar charts get a row of height per bar (room for a label's two lines when narrow); the
  // width is the container's, at any width.
  function fitRows(canvasId, rows) {
    const box = document.getElementById(canvasId).parentElement;
    const perRow = box.clientWidth && box.clientWidth < NARROW ? 32 : 26;
    box.style.height = Math.max(220, perRow * rows + 90) + "px";
  }

  // A label in two lines, broken after a hyphen or a colon or at a space, where the longer
  // line is shortest: "fargate-0.25vcpu-" / "0.5gb-arm64 (estimated)".
  function twoLines(label) {
    let best = null;
    for (let at = 1; at < label.length; at += 1) {
      if (!/[-:]/.test(label[at - 1]) && label[at] !== " ") continue;
      const lines = [label.slice(0, at).trimEnd(), label.slice(at).trimStart()];
      const longest = Math.max(lines[0].length, lines[1].length);
      if (best === null || longest < best.longest) best = { lines: lines, longest: longest };
    }
    return best ? best.lines : label;
  }

  // A type's name on a phone's chart would run off the canvas's left edge (the y axis of a
  // horizontal bar chart takes what its longest label needs, up to the chart's width): every
  // category axis writes a label longer than its share of the width on two lines. A chart
  // with its own callback (compare.js) keeps it.
  function categoryLabel(value) {
    const label = this.getLabelForValue(value);
    if (typeof label !== "string" || this.chart.width >= NARROW) return label;
    // About 6.5 px a character at the axis' 12 px: some 45% of the width for the labels.
    const budget = Math.max(12, Math.floor((this.chart.width * 0.45) / 6.5));
    return label.length > budget ? twoLines(label) : label;
  }
  Chart.defaults.scales.category.ticks.callback = categoryLabel;

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

  // An estimated figure's fill (a Fargate size no task measured): the colour crossed with white.
  function hatch(colour) {
    const tile = document.createElement("canvas");
    tile.width = tile.height = 8;
    const context = tile.getContext("2d");
    context.fillStyle = colour;
    context.fillRect(0, 0, 8, 8);
    context.strokeStyle = "#fff";
    context.lineWidth = 1.5;
    context.beginPath();
    context.moveTo(0, 0);
    context.lineTo(8, 8);
    context.moveTo(8, 0);
    context.lineTo(0, 8);
    context.stroke();
    return context.createPattern(tile, "repeat");
  }

  // A row's fill in every chart: hatched where it is estimated (its `estimated`), never plain.
  function fillOf(row, colour) {
    return row.estimated ? hatch(colour) : colour;
  }

  // The legend's entry for the hatching, where some row is estimated (none otherwise).
  function estimatedLegend(rows) {
    return rows.some((row) => row && row.estimated)
      ? [{ text: "estimated from EC2 on the same processor", fillStyle: hatch("#555"),
           strokeStyle: "#555", lineWidth: 1 }]
      : [];
  }

  return { savePng: savePng, saveCsv: saveCsv, chartCsv: chartCsv, fitRows: fitRows, stripes: stripes,
           hatch: hatch, twoLines: twoLines, fillOf: fillOf, estimatedLegend: estimatedLegend,
           readableLogTick: readableLogTick, BEST_MARK: BEST_MARK };
})();
