// Draws the comparison page's charts from the JSON the view embeds with json_script. The
// numbers are the API's for the same question; the server says how each axis reads.
// PricebenchComparison.draw() draws them again once family-picker.js has put a new answer
// (new chart data and canvases) in the page.
window.PricebenchComparison = (function () {
  "use strict";
  let charts = {};

  function draw() {
    Object.values(charts).forEach((chart) => chart.destroy());
    charts = {};
    document.body.dataset.chartsReady = "false";
    const data = JSON.parse(document.getElementById("chart-data").textContent);
    const units = window.PricebenchUnits;
    const tools = window.PricebenchCharts;
    const reading = data.reading;
    const format = (value, scale) => units.format(value, scale, data.rules);
    const usdPerHour = (usd) => "$" + Number(usd.toPrecision(6)) + "/h";
    // Axis ticks leave the "per dollar" to the axis title.
    const tick = (value, scale) => (tools.readableLogTick(valueAxisType(), value)
      ? units.format(value, Object.assign({}, scale, { suffix: "" }), data.rules) : "");
    const byKey = Object.fromEntries(data.rows.map((row) => [row.key, row]));
    const bars = data.bars.map((key) => byKey[key]);
    // The medians and single values rank by the figure they show (best first).
    const valueBars = (data.value_bars || data.bars).map((key) => byKey[key]);
    const shapes = ["circle", "triangle", "rect", "rectRot", "star", "crossRot", "cross",
                    "rectRounded", "line", "dash"];
    const LINE_SHAPES = ["star", "crossRot", "cross", "line", "dash"];
    // One colour per point, as arrays: Chart.js resolves a function per point, thousands of times.
    const colours = (points) => points.map((point) => byKey[point.key].colour);
    const shapeOf = (model) => shapes[data.cpu_models.indexOf(model) % shapes.length];
    document.body.dataset.exportName = data.benchmark;

    // View state lives in the address's fragment, so that a copied link keeps it.
    const view = new URLSearchParams(window.location.hash.slice(1));
    const perVcpu = document.getElementById("per-vcpu");
    const logScale = document.getElementById("log-scale");
    perVcpu.checked = view.get("per_vcpu") === "1";
    logScale.checked = view.get("scale") === "log";

    const familyLegend = (extra) => ({
      display: true,
      position: "bottom",
      onClick: () => {},
      labels: {
        generateLabels: () => [
          ...data.families.map((family) => ({
            text: family.name, fillStyle: family.colour, strokeStyle: family.colour, lineWidth: 0,
          })),
          ...(extra || []),
        ],
      },
    });
    const valueAxisType = () => (logScale.checked ? "logarithmic" : "linear");
    const perVcpuOf = (row, value) =>
      perVcpu.checked && row.vcpus ? value / row.vcpus : value;
    const valueName = () => reading.value_name + (perVcpu.checked ? " per vCPU" : "");

    // A bar with its 90% interval as error bars (no interval: none drawn, both ends the bar's).
    const intervalPoint = (value, interval, scale) => (interval
      ? { x: scale(value), xMin: scale(interval.low), xMax: scale(interval.high) }
      : { x: scale(value), xMin: scale(value), xMax: scale(value) });
    const intervalText = (interval, scale) => (interval
      ? "; 90% interval " + format(interval.low, scale) + " – " + format(interval.high, scale) : "");

    // "; rank 3 (1–8 within noise)": where the row stands once the benchmark's noise counts.
    const rankText = (row) => {
      if (!row.rank) return "";
      const [best, worst] = row.rank_range || [row.rank, row.rank];
      return "; rank " + row.rank + (best !== worst ? " (" + best + "–" + worst + " within noise)" : "");
    };

    function perDollarChart() {
      if (!reading.per_dollar || !document.getElementById("per-dollar-chart")) return;
      tools.fitRows("per-dollar-chart", bars.length);
      const datasets = [{
        label: reading.per_dollar_name,
        // Error bars: the row's 90% interval (where a second run lands 9 times in 10).
        data: bars.map((row) => intervalPoint(row.per_dollar, row.per_dollar_interval, (value) => value)),
        errorBarColor: "#222",
        errorBarWhiskerColor: "#222",
        errorBarLineWidth: 1,
        errorBarWhiskerSize: 6,
        // An estimated row (a Fargate size no task measured) is hatched, never plain.
        backgroundColor: bars.map((row) => tools.fillOf(row, row.colour)),
        // The best bar is outlined thick; those the noise cannot tell from it, thin.
        borderColor: bars.map((row) => (row.best || row.within_noise_of_best ? "#000" : row.colour)),
        borderWidth: bars.map((row) => (row.best ? 3 : row.within_noise_of_best ? 1 : 0)),
      }];
      const indistinguishable = bars.some((row) => !row.best && row.within_noise_of_best);
      const burstable = bars.some((row) => row.sustained_per_dollar !== null);
      // Burstable types are ranked on the basis asked; the striped bar is the other figure.
      const other = data.basis === "sustained"
        ? { label: "while CPU credits last", field: "burst_per_dollar" }
        : { label: "once CPU credits are spent", field: "sustained_per_dollar" };
      if (burstable) {
        datasets.push({
          type: "bar",
          label: other.label,
          data: bars.map((row) => row[other.field]),
          backgroundColor: bars.map((row) => tools.stripes(row.colour)),
          borderColor: bars.map((row) => row.colour),
          borderWidth: 1,
        });
      }
      charts.perDollar = new Chart(document.getElementById("per-dollar-chart"), {
        type: "barWithErrorBars",
        data: {
          // An estimated row's label says so (charts.py: "... (estimated)").
          labels: bars.map((row) => (row.best ? tools.BEST_MARK : "") + row.label),
          datasets: datasets,
        },
        options: {
          indexAxis: "y",
          maintainAspectRatio: false,
          skipNull: true,
          // A click on a bar ticks (or unticks) its type for "Compare selected".
          onClick: (_event, elements) => {
            if (elements.length && window.PricebenchComparePicker) {
              window.PricebenchComparePicker.toggle(bars[elements[0].index].instance_type);
            }
          },
          plugins: {
            legend: familyLegend([
              { text: tools.BEST_MARK + "best per dollar", fillStyle: "#fff", strokeStyle: "#000", lineWidth: 3 },
              ...(indistinguishable ? [{ text: "within noise of the best", fillStyle: "#fff",
                                         strokeStyle: "#000", lineWidth: 1 }] : []),
              ...(burstable ? [{ text: other.label, fillStyle: tools.stripes("#555"),
                                 strokeStyle: "#555", lineWidth: 1 }] : []),
              ...tools.estimatedLegend(bars),
            ]),
            tooltip: {
              callbacks: {
                label: (item) => {
                  const row = bars[item.dataIndex];
                  if (item.datasetIndex !== 0) return other.label + ": " + format(row[other.field], reading.per_dollar);
                  const figure = format(row.per_dollar, reading.per_dollar) + rankText(row)
                    + intervalText(row.per_dollar_interval, reading.per_dollar);
                  return row.estimated ? [figure, row.estimate_note] : figure;
                },
              },
            },
          },
          scales: {
            x: {
              type: valueAxisType(),
              beginAtZero: true,
              title: { display: true, text: reading.per_dollar_name },
              ticks: { callback: (value) => tick(value, reading.per_dollar) },
            },
            y: { ticks: { autoSkip: false } },
          },
        },
      });
    }

    function medianChart() {
      tools.fitRows("median-chart", valueBars.length);
      charts.median = new Chart(document.getElementById("median-chart"), {
        type: "barWithErrorBars",
        data: {
          // An estimated row has no runs: its label says "(estimated)" instead.
          labels: valueBars.map((row) => row.label
            + (row.estimated ? "" : " · " + row.runs + (row.runs === 1 ? " run" : " runs"))),
          datasets: [{
            label: valueName(),
            data: medianPoints(),
            backgroundColor: valueBars.map((row) => tools.fillOf(row, row.colour)),
            errorBarColor: "#222",
            errorBarWhiskerColor: "#222",
            errorBarLineWidth: 1.5,
            errorBarWhiskerSize: 10,
          }],
        },
        options: {
          indexAxis: "y",
          maintainAspectRatio: false,
          plugins: {
            legend: familyLegend([{ text: "90% interval: a second run lands inside 9 times in 10",
                                    fillStyle: "#fff", strokeStyle: "#222", lineWidth: 1.5 },
                                  ...tools.estimatedLegend(valueBars)]),
            tooltip: {
              callbacks: {
                label: (item) => {
                  const row = valueBars[item.dataIndex];
                  const point = item.raw;
                  if (row.estimated) return [format(point.x, reading.value) + " (estimated)", row.estimate_note];
                  return "median " + format(point.x, reading.value) + " (90% interval "
                    + format(point.xMin, reading.value) + " – " + format(point.xMax, reading.value) + "), "
                    + row.runs + (row.runs === 1 ? " run" : " runs");
                },
              },
            },
          },
          scales: {
            x: {
              type: valueAxisType(),
              beginAtZero: true,
              title: { display: true, text: valueName() + " (" + reading.direction + ")" },
              ticks: { callback: (value) => tick(value, reading.value) },
            },
            y: { ticks: { autoSkip: false } },
          },
        },
      });
    }

    function medianPoints() {
      return valueBars.map((row) => intervalPoint(row.median, row.interval || { low: row.min, high: row.max },
                                                  (value) => perVcpuOf(row, value)));
    }

    function priceChart() {
      const priced = data.rows.filter((row) => row.usd_per_hour !== null);
      const frontier = priced.filter((row) => row.pareto)
        .sort((a, b) => a.usd_per_hour - b.usd_per_hour);
      const box = document.getElementById("price-chart").parentElement;
      box.style.height = Math.min(520, Math.max(300, box.clientWidth * 0.75)) + "px";
      charts.price = new Chart(document.getElementById("price-chart"), {
        type: "scatter",
        data: {
          datasets: [
            {
              label: "Pareto frontier",
              type: "line",
              data: frontier.map((row) => ({ x: row.usd_per_hour, y: row.basis_figure, key: row.key })),
              stepped: "after",
              borderColor: "#000",
              borderWidth: 1.5,
              borderDash: [5, 3],
              pointRadius: 0,
              fill: false,
            },
            {
              label: "instance types",
              // A burstable type stands at the figure the basis ranks it by (what it sustains,
              // by default), as the frontier is drawn.
              data: priced.map((row) => ({ x: row.usd_per_hour, y: row.basis_figure, key: row.key })),
              backgroundColor: priced.map((row) => tools.fillOf(row, row.colour)),
              pointStyle: priced.map((row) => (row.estimated ? "rectRot" : "circle")),
              borderColor: priced.map((row) => (row.pareto ? "#000" : row.colour)),
              borderWidth: priced.map((row) => (row.pareto ? 2.5 : 1)),
              pointRadius: priced.map((row) => (row.pareto || row.estimated ? 7 : 4)),
            },
          ],
        },
        options: {
          maintainAspectRatio: false,
          plugins: {
            legend: familyLegend([{ text: "Pareto frontier", fillStyle: "#fff", strokeStyle: "#000",
                                    lineWidth: 2.5, lineDash: [5, 3] }, ...tools.estimatedLegend(priced)]),
            tooltip: {
              callbacks: {
                label: (item) => {
                  const row = byKey[item.raw.key];
                  const sustained = row.basis_figure !== row.median
                    ? " (" + format(row.median, reading.value) + " while CPU credits last)" : "";
                  return row.label + ": " + usdPerHour(row.usd_per_hour) + ", "
                    + format(row.basis_figure, reading.value) + sustained
                    + (row.pareto ? " (on the frontier)" : "");
                },
              },
            },
          },
          scales: {
            x: {
              type: valueAxisType(),
              title: { display: true, text: "USD per hour" },
              ticks: {
                callback: (value) => (tools.readableLogTick(valueAxisType(), value)
                  ? "$" + units.significant(value, data.rules, false, false)[0] : ""),
              },
            },
            y: {
              type: valueAxisType(),
              title: { display: true, text: reading.value_name + " (" + reading.direction + ")" },
              ticks: { callback: (value) => tick(value, reading.value) },
            },
          },
        },
      });
    }

    function spreadPoints() {
      // One dataset per CPU model (its shape); within a row each model has its own line, so
      // that tasks landing on different CPU generations stand apart.
      return data.cpu_models.map((model, modelIndex) => {
        const points = [];
        valueBars.forEach((row, index) => {
          const models = Object.keys(row.cpu_models);
          const offset = models.length > 1
            ? (models.indexOf(model) - (models.length - 1) / 2) * (0.6 / models.length) : 0;
          row.samples.filter((sample) => sample[1] === modelIndex).forEach((sample) => {
            points.push({ x: perVcpuOf(row, sample[0]), y: index + offset, key: row.key });
          });
        });
        return points;
      });
    }

    function spreadChart() {
      tools.fitRows("spread-chart", valueBars.length);
      const labels = valueBars.map((row) => row.label);
      const points = spreadPoints();
      charts.spread = new Chart(document.getElementById("spread-chart"), {
        type: "scatter",
        data: {
          datasets: data.cpu_models.map((model, index) => ({
            label: model,
            data: points[index],
            pointStyle: shapeOf(model),
            pointRadius: 6,
            backgroundColor: colours(points[index]),
            // Shapes drawn as lines have no fill: they take the family's colour as their stroke.
            borderColor: LINE_SHAPES.includes(shapeOf(model)) ? colours(points[index]) : "#333",
            borderWidth: LINE_SHAPES.includes(shapeOf(model)) ? 2 : 1,
          })),
        },
        options: {
          maintainAspectRatio: false,
          plugins: {
            legend: {
              position: "bottom",
              // Families (colour) first, as on the other charts, then CPU models (shape); a
              // CPU model's entry hides or shows its points.
              onClick: (event, item, legend) => {
                if (item.datasetIndex === undefined) return;
                const chart = legend.chart;
                chart.setDatasetVisibility(item.datasetIndex, !chart.isDatasetVisible(item.datasetIndex));
                chart.update();
              },
              labels: {
                usePointStyle: true,
                generateLabels: (chart) => [
                  ...data.families.map((family) => ({
                    text: family.name, pointStyle: "rect", fillStyle: family.colour,
                    strokeStyle: family.colour, lineWidth: 0,
                  })),
                  ...chart.data.datasets.map((dataset, index) => ({
                    text: dataset.label, pointStyle: dataset.pointStyle, fillStyle: "#fff",
                    strokeStyle: "#333", lineWidth: 1, hidden: !chart.isDatasetVisible(index),
                    datasetIndex: index,
                  })),
                ],
              },
            },
            tooltip: {
              callbacks: {
                label: (item) => byKey[item.raw.key].label + ", " + item.dataset.label + ": "
                  + format(item.raw.x, reading.value),
              },
            },
          },
          scales: {
            y: {
              type: "linear",
              reverse: true,
              min: -0.5,
              max: labels.length - 0.5,
              afterBuildTicks: (axis) => { axis.ticks = labels.map((_, index) => ({ value: index })); },
              ticks: { autoSkip: false, callback: (value) => labels[value] ?? "" },
              grid: { display: false },
            },
            x: {
              type: valueAxisType(),
              beginAtZero: true,
              title: { display: true, text: valueName() },
              ticks: { callback: (value) => tick(value, reading.value) },
            },
          },
        },
      });
    }

    // The baseline chart shows the best types per dollar and the baseline (three bars each);
    // "Show all" draws every charted type, so that forty types are not 2,000 px of bars.
    const BASELINE_FIRST = 12;
    let baselineAll = false;
    function baselineRows() {
      if (baselineAll || bars.length <= BASELINE_FIRST) return bars;
      const shown = bars.slice(0, BASELINE_FIRST);
      const base = bars.find((row) => row.key === data.baseline || row.instance_type === data.baseline);
      if (base && !shown.includes(base)) shown[shown.length - 1] = base;
      return shown;
    }

    function baselineChart() {
      if (!data.baseline || !document.getElementById("baseline-chart")) return;
      if (charts.baseline) charts.baseline.destroy();
      const rows = baselineRows();
      const toggle = document.getElementById("baseline-show-all");
      if (toggle) {
        toggle.hidden = bars.length <= BASELINE_FIRST;
        toggle.textContent = baselineAll
          ? "Show the best " + BASELINE_FIRST + " and the baseline"
          : "Show all " + bars.length + " types";
        toggle.onclick = () => { baselineAll = !baselineAll; baselineChart(); };
      }
      tools.fitRows("baseline-chart", rows.length * 2);
      const measures = [
        ["relative_throughput", "throughput", "#1d2330"],
        ["relative_cost", "cost", "#8a94a6"],
        ["relative_per_dollar", "per dollar", "#d0d5de"],
      ];
      charts.baseline = new Chart(document.getElementById("baseline-chart"), {
        type: "bar",
        data: {
          labels: rows.map((row) => row.label),
          datasets: measures.map(([field, label, colour]) => ({
            label: label,
            data: rows.map((row) => row[field]),
            backgroundColor: rows.map((row) => tools.fillOf(row, colour)),
            borderColor: "#1d2330",
            borderWidth: 1,
          })),
        },
        options: {
          indexAxis: "y",
          maintainAspectRatio: false,
          plugins: {
            legend: {
              position: "bottom",
              // The three measures (a click hides one), and the hatching where a row is estimated.
              onClick: (event, item, legend) => {
                if (item.datasetIndex !== undefined) Chart.defaults.plugins.legend.onClick.call(legend, event, item, legend);
              },
              labels: {
                generateLabels: (chart) => [
                  ...measures.map(([, label, colour], index) => ({
                    text: label, fillStyle: colour, strokeStyle: "#1d2330", lineWidth: 1,
                    datasetIndex: index, hidden: !chart.isDatasetVisible(index),
                  })),
                  ...tools.estimatedLegend(rows),
                ],
              },
            },
            tooltip: {
              callbacks: {
                label: (item) => item.dataset.label + ": " + units.percent(item.raw)
                  + (rows[item.dataIndex].estimated ? " (estimated)" : ""),
              },
            },
          },
          scales: {
            x: {
              beginAtZero: true,
              // Beyond the axis's end a bar is cut at the edge; the note under the chart names it.
              type: data.baseline_axis.type,
              max: data.baseline_axis.max || undefined,
              title: { display: true, text: "against " + data.baseline + " (100%)" },
              ticks: { callback: (value) => (tools.readableLogTick(data.baseline_axis.type, value) ? units.percent(value) : "") },
            },
            y: { ticks: { autoSkip: false } },
          },
        },
      });
    }

    // The first chart (per dollar, else the medians) is drawn at once, the others once the
    // browser has painted it, so that a page of hundreds of types shows its answer before it
    // has drawn everything. The marks tell a measurement when the first chart was on screen
    // and when all were.
    perDollarChart();
    if (!charts.perDollar) medianChart();
    afterPaint(() => {
      performance.mark("pricebench:first-chart");
      if (!charts.median) medianChart();
      priceChart();
      spreadChart();
      baselineChart();
      perVcpu.addEventListener("change", applyView);
      logScale.addEventListener("change", applyView);
      if (perVcpu.checked || logScale.checked) applyView();
      performance.mark("pricebench:charts-ready");
      document.body.dataset.chartsReady = "true";
    });

    function afterPaint(callback) {
      if (document.hidden) setTimeout(callback, 0);
      else requestAnimationFrame(() => setTimeout(callback, 0));
    }

    function applyView() {
      const type = valueAxisType();
      for (const chart of Object.values(charts)) {
        if (chart === charts.baseline) continue;
        for (const [id, scale] of Object.entries(chart.options.scales)) {
          if (chart === charts.spread && id === "y") continue;
          if (id === "y" && chart !== charts.price) continue;
          scale.type = type;
        }
      }
      charts.median.data.datasets[0].data = medianPoints();
      charts.median.data.datasets[0].label = valueName();
      charts.median.options.scales.x.title.text = valueName() + " (" + reading.direction + ")";
      spreadPoints().forEach((points, index) => { charts.spread.data.datasets[index].data = points; });
      charts.spread.options.scales.x.title.text = valueName();
      Object.values(charts).forEach((chart) => chart.update());
      const state = new URLSearchParams();
      if (perVcpu.checked) state.set("per_vcpu", "1");
      if (logScale.checked) state.set("scale", "log");
      const hash = state.toString();
      window.history.replaceState(null, "", window.location.pathname + window.location.search
        + (hash ? "#" + hash : ""));
    }
  }

  draw();
  return { draw: draw };
})();
