// /fleet/: sends the fleet file to POST /api/v1/fleets/ with the browser's own upload progress
// (XMLHttpRequest's upload events into the <progress>), then draws the answer: the summary,
// the table, now vs re-bought per line with the saving's range, and the CSV download.
(function () {
  "use strict";
  const form = document.getElementById("fleet-form");
  const progress = document.getElementById("fleet-progress");
  const status = document.getElementById("fleet-status");
  const answerBox = document.getElementById("fleet-answer");
  let chart = null;
  let lastFile = null;
  let lastQuery = "";
  // The form's own names; any other in the page's address is one of the benchmark's
  // parameters (/fleet/?benchmark=openssl:aes-256-cbc&block_size=8192), shown to edit.
  const OWN = ["benchmark", "profile", "regions", "params"];
  const given = new URLSearchParams(window.location.search);
  form.elements.params.value = [...given].filter(([name]) => !OWN.includes(name))
    .map(([name, value]) => name + "=" + value).join("&");

  const usd = (amount) => {
    const sign = amount < 0 ? "−" : "";
    const abs = Math.abs(amount);
    return sign + "$" + abs.toLocaleString("en-US", { maximumFractionDigits: abs < 100 ? 2 : 0,
                                                       minimumFractionDigits: abs < 100 ? 2 : 0 });
  };

  function query() {
    const params = new URLSearchParams();
    const profile = form.elements.profile.value;
    if (profile) {
      params.set("profile", profile);
    } else {
      params.set("benchmark", form.elements.benchmark.value.trim());
      // "block_size=8192 processes=1" or with & between: each the benchmark's own.
      for (const pair of form.elements.params.value.trim().split(/[\s&]+/)) {
        const [name, value] = pair.split("=");
        if (name && value !== undefined && !OWN.includes(name.trim())) {
          params.set(name.trim(), value.trim());
        }
      }
    }
    params.set("regions", form.elements.regions.value);
    return params.toString();
  }

  function send(file, search, format, done) {
    const request = new XMLHttpRequest();
    const body = new FormData();
    body.append("file", file);
    request.open("POST", form.action + "?" + search + (format ? "&format=" + format : ""));
    request.setRequestHeader("X-CSRFToken", form.elements.csrfmiddlewaretoken.value);
    if (format === "csv") {
      request.responseType = "blob";
    } else {
      request.setRequestHeader("Accept", "application/json");
    }
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) {
        progress.max = event.total;
        progress.value = event.loaded;
      }
    });
    request.upload.addEventListener("load", () => {
      status.textContent = "Uploaded; re-buying…";
    });
    request.addEventListener("load", () => done(request));
    request.addEventListener("error", () => {
      status.textContent = "The upload failed: the server could not be reached.";
      progress.hidden = true;
    });
    progress.hidden = false;
    progress.value = 0;
    status.textContent = "Uploading…";
    request.send(body);
  }

  function problem(request) {
    try {
      const body = JSON.parse(request.responseText);
      return Object.entries(body).map(([name, messages]) =>
        (name === "detail" ? "" : name + ": ") + [].concat(messages).join(" ")).join("; ");
    } catch (error) {
      return "the server answered " + request.status;
    }
  }

  function cell(row, text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
  }

  function table(lines) {
    const body = document.querySelector("#fleet-lines tbody");
    body.replaceChildren();
    for (const line of lines) {
      const replacement = line.replacement;
      const saving = replacement.saving_usd_per_month;
      const ratio = replacement.work_ratio;
      const row = document.createElement("tr");
      cell(row, line.instance_type);
      cell(row, line.region);
      cell(row, line.hours.toLocaleString("en-US", { maximumFractionDigits: 1 }));
      cell(row, line.purchase_option.replace("_", "-") + (line.note ? " *" : ""));
      cell(row, usd(line.usd_per_month) + (line.paid ? "" : " (list)"));
      cell(row, replacement.kept ? "keep " + replacement.instance_type
        : replacement.instance_type + (replacement.region !== line.region ? " in " + replacement.region : ""));
      cell(row, usd(replacement.usd_per_month));
      cell(row, ratio.mid.toFixed(2) + " (" + ratio.low.toFixed(2) + "–" + ratio.high.toFixed(2) + ")"
        + (replacement.estimated ? " estimated" : ""), replacement.estimated ? "estimated" : "");
      // An estimate is not measured work: said in the ratio's cell, and why on hover.
      if (replacement.estimated) {
        row.lastChild.title = "Rests on an estimated figure (a Fargate size no task measured), "
          + "the replacement's or this line's own: not measured work";
      }
      cell(row, usd(saving.mid) + " (" + usd(saving.low) + " – " + usd(saving.high) + ")", "saving");
      cell(row, replacement.beyond_noise ? "yes" : "no");
      if (line.note) row.title = line.note;
      body.appendChild(row);
    }
  }

  function draw(lines) {
    const box = document.getElementById("fleet-chart-box");
    box.style.height = Math.max(160, 70 + lines.length * 56) + "px";
    const labels = lines.map((line) => line.instance_type + " · " + line.region);
    const now = lines.map((line) => ({ x: line.usd_per_month, xMin: line.usd_per_month, xMax: line.usd_per_month }));
    // The re-bought cost's range is the saving's range read from the cost now.
    const rebought = lines.map((line) => ({
      x: line.replacement.usd_per_month,
      xMin: line.usd_per_month - line.replacement.saving_usd_per_month.high,
      xMax: line.usd_per_month - line.replacement.saving_usd_per_month.low,
    }));
    if (chart) chart.destroy();
    chart = new Chart(document.getElementById("fleet-chart"), {
      type: "barWithErrorBars",
      data: {
        labels: labels,
        datasets: [
          { label: "Now", data: now, backgroundColor: "#9aa5b1" },
          { label: "Re-bought at equal work (range)", data: rebought, backgroundColor: "#2f855a",
            errorBarColor: "#222", errorBarWhiskerColor: "#222", errorBarLineWidth: 1.5, errorBarWhiskerSize: 8 },
        ],
      },
      options: {
        indexAxis: "y",
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) => item.dataset.label + ": " + usd(item.raw.x)
                + (item.datasetIndex === 1 ? " (" + usd(item.raw.xMin) + " – " + usd(item.raw.xMax) + ")" : ""),
            },
          },
        },
        scales: {
          x: { beginAtZero: true, title: { display: true, text: "US dollars a month" },
               ticks: { callback: (value) => usd(value) } },
          y: { ticks: { autoSkip: false } },
        },
      },
    });
  }

  function show(answer) {
    answerBox.hidden = false;
    document.getElementById("fleet-summary").textContent = answer.summary;
    table(answer.lines);
    draw(answer.lines);
    const skipped = document.getElementById("fleet-skipped");
    skipped.replaceChildren(...answer.skipped.map((item) => {
      const li = document.createElement("li");
      li.textContent = "row " + item.row + ": " + item.reason;
      return li;
    }));
    document.getElementById("fleet-skipped-box").hidden = answer.skipped_count === 0;
    document.getElementById("fleet-skipped-title").textContent = answer.skipped_count
      + " skipped, " + answer.other_rows + " other rows (not compute) passed over";
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const file = form.elements.file.files[0];
    if (!file) return;
    const search = query();
    send(file, search, "", (request) => {
      progress.hidden = true;
      if (request.status !== 200) {
        status.textContent = "Not re-bought: " + problem(request);
        answerBox.hidden = true;
        return;
      }
      status.textContent = "";
      lastFile = file;
      lastQuery = search;
      show(JSON.parse(request.responseText));
    });
  });

  document.getElementById("fleet-csv").addEventListener("click", (event) => {
    event.preventDefault();
    if (!lastFile) return;
    // The answer is computed again from the same file: nothing of a fleet is stored.
    send(lastFile, lastQuery, "csv", (request) => {
      progress.hidden = true;
      status.textContent = "";
      if (request.status !== 200) return;
      const link = document.createElement("a");
      link.href = URL.createObjectURL(request.response);
      link.download = "pricebench_fleet.csv";
      document.body.appendChild(link);
      link.click();
      link.remove();
    });
  });
}());
