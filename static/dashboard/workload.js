// /workload/: the form's figures posted to the API, the answer drawn (chart, table, CSV).
(function () {
  "use strict";
  const form = document.getElementById("workload-form");
  const errorBox = document.getElementById("workload-error");
  const answerBox = document.getElementById("workload-answer");
  let chart = null;

  // "c7g.xlarge 1200" or "c7g.xlarge,1200" or tab-separated, one a line (pasted from a sheet).
  function parseFigures(text) {
    const figures = [];
    text.split(/\r?\n/).forEach((line, index) => {
      const trimmed = line.trim();
      if (!trimmed) return;
      const parts = trimmed.split(/[\s,;]+/);
      if (parts.length < 2) throw new Error("line " + (index + 1) + ": give a type and a value");
      figures.push({ instance_type: parts[0], value: Number(parts[parts.length - 1]) });
    });
    return figures;
  }

  function question() {
    const exclude = document.getElementById("workload-exclude").value.split(",")
      .map((item) => item.trim()).filter(Boolean);
    return {
      figures: parseFigures(document.getElementById("workload-figures").value),
      unit: document.getElementById("workload-unit").value,
      higher_is_better: document.getElementById("workload-direction").value === "true",
      region: document.getElementById("workload-region").value || "us-east-1",
      purchase_option: document.getElementById("workload-purchase").value,
      exclude_benchmarks: exclude,
    };
  }

  function errorText(body) {
    if (typeof body === "string") return body;
    if (body.detail) return body.detail;
    return Object.entries(body).map(([name, value]) => name + ": " + [].concat(value).join("; ")).join(" · ");
  }

  function csv(rows) {
    const header = ["rank", "rank_best", "rank_worst", "instance_type", "vendor", "predicted",
      "predicted_low", "predicted_high", "measured", "usd_per_hour", "per_dollar",
      "per_dollar_low", "per_dollar_high"];
    const lines = rows.map((row) => [row.rank, row.rank_range[0], row.rank_range[1], row.instance_type,
      row.vendor, row.predicted, row.interval.low, row.interval.high, row.measured, row.usd_per_hour,
      row.per_dollar, row.per_dollar_interval.low, row.per_dollar_interval.high].join(","));
    return [header.join(",")].concat(lines).join("\n") + "\n";
  }

  function share(value) {
    return value === null || value === undefined ? "–" : (100 * value).toFixed(1) + "%";
  }

  function draw(body) {
    answerBox.hidden = false;
    document.getElementById("workload-summary").textContent = body.summary;
    // `bayes` averages dozens of benchmarks, each weight its share: the heaviest few named.
    const averaged = body.model.method === "bayes", named = 5;
    let used = body.model.benchmarks.slice(0, named).map((item) => item.benchmark
      + (Object.keys(item.params).length ? " (" + Object.entries(item.params).map(([k, v]) => k + "=" + v).join(", ") + ")" : "")
      + (averaged ? " " + share(item.weight) : " × " + item.weight)).join(", ");
    if (body.model.benchmarks.length > named) used += " and " + (body.model.benchmarks.length - named) + " more";
    document.getElementById("workload-model").textContent = "Model (" + body.model.method + "): " + used;
    const check = body.validation, held = check.held_out_benchmarks;
    document.getElementById("workload-validation").textContent = "Validation: leave-one-out on your "
      + check.cases + " figures, median error " + share(check.median_error) + ", 90% intervals held "
      + share(check.interval_coverage) + "; on " + held.cases + " benchmarks held out of the method, median error "
      + share(held.median_error) + ", intervals held " + share(held.interval_coverage) + ".";
    const blob = new Blob([csv(body.results)], { type: "text/csv" });
    document.getElementById("workload-csv").href = URL.createObjectURL(blob);
    const tbody = document.querySelector("#workload-table tbody");
    tbody.replaceChildren();
    body.results.forEach((row) => {
      const tr = document.createElement("tr");
      [row.rank, row.rank_range[0] + "–" + row.rank_range[1], row.instance_type, row.predicted,
        row.interval.low + " – " + row.interval.high, row.measured ? "yes" : "", row.usd_per_hour,
        row.per_dollar].forEach((value) => {
        const td = document.createElement("td");
        td.textContent = value;
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
    const bars = body.results.slice(0, 30);
    if (chart) chart.destroy();
    const box = document.getElementById("workload-chart").parentElement;
    box.style.height = (bars.length * 22 + 60) + "px";
    chart = new Chart(document.getElementById("workload-chart"), {
      type: "barWithErrorBars",
      data: {
        labels: bars.map((row) => (row.measured ? "● " : "") + row.instance_type),
        datasets: [{
          // A throughput's per dollar is what an hour's dollar buys: figure x 3600 / USD per hour.
          label: body.higher_is_better ? "work per dollar (figure x 3600 s / USD per hour)"
            : "jobs per dollar (3600 s / (figure x USD per hour))",
          data: bars.map((row) => ({ x: row.per_dollar, xMin: row.per_dollar_interval.low, xMax: row.per_dollar_interval.high })),
          backgroundColor: bars.map((row) => (row.measured ? "#1f77b4" : "#9ecae1")),
          errorBarColor: "#222", errorBarWhiskerColor: "#222", errorBarLineWidth: 1, errorBarWhiskerSize: 6,
        }],
      },
      options: { indexAxis: "y", maintainAspectRatio: false, animation: false },
    });
  }

  async function ask() {
    errorBox.hidden = true;
    let body;
    try {
      body = question();
    } catch (error) {
      errorBox.textContent = error.message;
      errorBox.hidden = false;
      return;
    }
    const link = new URLSearchParams(new FormData(form));
    document.getElementById("workload-link").href = "?" + link.toString();
    const response = await fetch("/api/v1/workloads/predict/", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    let answer;
    try {
      answer = await response.json();
    } catch (error) {
      answer = "the server answered " + response.status;
    }
    if (!response.ok) {
      answerBox.hidden = true;
      errorBox.textContent = errorText(answer);
      errorBox.hidden = false;
      return;
    }
    draw(answer);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    history.replaceState(null, "", "?" + new URLSearchParams(new FormData(form)).toString());
    ask();
  });
  if (document.getElementById("workload-figures").value.trim()) ask();
})();
