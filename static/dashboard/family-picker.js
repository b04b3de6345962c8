// The comparison page's families: a search over the family checkboxes, presets that tick a
// named set, and the answer to the new choice fetched from this same page and put in place of
// the old one (sentence, charts, table), without a reload; the address follows. Without
// scripts the checkboxes submit with the form and the presets are links.
//
// The boxes are the question's families, whatever the answer shows: the picker's `data-all`
// says every family was asked (`families=`), so that a new benchmark or region is asked for
// every family too, never for the names of the last one's (PricebenchFamilies.beforeSubmit,
// called by controls.js).
(function () {
  "use strict";
  const form = document.getElementById("comparison-form");
  const picker = document.getElementById("family-picker");
  if (!form || !picker) return;
  picker.dataset.noSubmit = ""; // controls.js leaves the picker's changes to this script
  const search = document.getElementById("family-search");
  const boxes = () => [...picker.querySelectorAll("input[type=checkbox][name=families]")];
  const missing = () => picker.querySelector("input[type=hidden][name=families]");
  const everyFamily = () => picker.hasAttribute("data-all");

  // A family is found by its name or by what its label says of it (its cloud, its
  // processors: "graviton", "amd", "arm", "burstable").
  function filter() {
    const words = search.value.trim().toLowerCase();
    boxes().forEach((box) => {
      const label = box.closest("label");
      const text = (box.value + " " + (label.dataset.search || "")).toLowerCase();
      label.hidden = Boolean(words) && !text.includes(words);
    });
  }
  search.addEventListener("input", filter);

  // The open panel stays inside the window: moved left by what would pass its right edge.
  const panel = picker.querySelector(".family-panel");
  picker.addEventListener("toggle", () => {
    panel.style.left = "";
    if (!picker.open) return;
    const over = panel.getBoundingClientRect().right - document.documentElement.clientWidth;
    if (over > 0) panel.style.left = -Math.ceil(over) - 8 + "px";
  });
  // Enter in the search box ticks the only family it leaves, rather than sending the form.
  search.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    const shown = boxes().filter((box) => !box.closest("label").hidden);
    if (shown.length === 1 && !shown[0].checked) {
      shown[0].checked = true;
      picker.removeAttribute("data-all");
      ask();
    }
  });

  picker.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-preset]");
    if (!link) return;
    event.preventDefault();
    const wanted = link.dataset.families ? link.dataset.families.split(",") : null;
    boxes().forEach((box) => { box.checked = !wanted || wanted.includes(box.value); });
    if (wanted) picker.removeAttribute("data-all");
    else picker.setAttribute("data-all", "");
    // A preset's families without a box here stay asked for: the answer names them.
    const shown = boxes().map((box) => box.value);
    missing().value = (wanted || []).filter((family) => !shown.includes(family)).join(",");
    ask();
  });

  picker.addEventListener("change", (event) => {
    if (event.target.name !== "families") return;
    // A box ticked or cleared: the families are those ticked, by name.
    picker.removeAttribute("data-all");
    ask();
  });

  // The families as the form sends them: every family (an empty `families=`) or the names.
  function asked() {
    if (everyFamily()) return "";
    const ticked = boxes().filter((box) => box.checked).map((box) => box.value);
    return [missing().value, ...ticked].filter(Boolean).join(",");
  }

  // Before the form is sent by another control: every family is asked as `families=`.
  window.PricebenchFamilies = {
    beforeSubmit() {
      if (!everyFamily()) return;
      boxes().forEach((box) => { box.disabled = true; });
      missing().value = "";
    },
  };

  // The question as the form would send it, empty optional choices left out (as controls.js).
  function question() {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (name === "families") continue;
      const field = form.elements[name];
      if (!value && field && field.hasAttribute && field.hasAttribute("data-optional")) continue;
      params.append(name, value);
    }
    const families = asked();
    // A baseline of a family no longer shown would be refused: the new answer goes without.
    const baseline = params.get("baseline");
    if (baseline && families && !families.split(",").includes(baseline.split(".")[0])) params.delete("baseline");
    params.set("families", families);
    return window.location.pathname + "?" + params.toString();
  }

  function chosenText() {
    const all = boxes();
    const ticked = all.filter((box) => box.checked).length;
    return everyFamily() ? "all " + all.length : ticked + " of " + all.length;
  }

  let pending = null;
  function ask() {
    document.getElementById("families-chosen").textContent = chosenText();
    const url = question();
    if (pending) pending.abort();
    pending = new AbortController();
    document.body.dataset.answerLoading = "true";
    document.getElementById("comparison-answer").setAttribute("aria-busy", "true");
    fetch(url, { signal: pending.signal, headers: { Accept: "text/html" } })
      .then((response) => response.text())
      .then((html) => show(url, new DOMParser().parseFromString(html, "text/html")))
      .catch((error) => {
        if (error.name !== "AbortError") window.location.assign(url);
      });
  }

  // The new answer's picker, when its boxes are others than these (a preset's families
  // without a box here): its boxes, as the question now asks them.
  function followBoxes(page) {
    const theirs = page.getElementById("families");
    const mine = document.getElementById("families");
    if (!theirs || !mine) return;
    const names = (fieldset) => [...fieldset.querySelectorAll("input[type=checkbox]")].map((box) => box.value).join(",");
    if (names(theirs) === names(mine)) return;
    mine.replaceWith(document.adoptNode(theirs));
    filter();
    document.getElementById("families-chosen").textContent = chosenText();
  }

  function show(url, page) {
    const fresh = page.getElementById("comparison-answer");
    const drawn = Boolean(window.PricebenchComparison);
    // A first answer with charts, on a page that had none, needs the chart scripts: load it.
    if (!fresh || (page.getElementById("chart-data") && !drawn)) {
      window.location.assign(url);
      return;
    }
    fresh.querySelectorAll("script[src]").forEach((script) => script.remove());
    document.getElementById("comparison-answer").replaceWith(document.adoptNode(fresh));
    // The parts of the form that follow the answer: its baseline choices, the parameters'
    // values (pinned, or open, by the new answer), the boxes.
    const params = [...page.querySelectorAll("#comparison-form [data-param]")].map((select) => select.id);
    for (const id of ["baseline", ...params]) {
      const mine = document.getElementById(id);
      const theirs = page.getElementById(id);
      if (mine && theirs) mine.replaceWith(document.adoptNode(theirs));
    }
    followBoxes(page);
    document.title = page.title;
    const answer = document.getElementById("comparison-answer");
    const address = (answer.dataset.permalink || url) + window.location.hash;
    window.history.replaceState(null, "", address);
    if (document.getElementById("chart-data")) window.PricebenchComparison.draw();
    delete document.body.dataset.answerLoading;
    pending = null;
  }
})();
