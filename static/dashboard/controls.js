// The comparison form: each change shows at once, a new benchmark starts from its own
// defaults, and the address bar always holds the whole question (the permalink).
(function () {
  "use strict";
  const form = document.getElementById("comparison-form");
  if (!form) return;

  form.classList.add("live");

  function submit() {
    // Empty optional choices stay out of the address.
    form.querySelectorAll("[data-optional]").forEach((field) => {
      if (!field.value) field.disabled = true;
    });
    // Every family asked stays every family (family-picker.js), not the names of this answer's.
    if (window.PricebenchFamilies) window.PricebenchFamilies.beforeSubmit();
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  // A date typed digit by digit is a whole date (and fires "change") from the first digit of
  // the year on: a typed date is asked for on Enter or when the field is left, a date picked
  // from the calendar at once.
  const date = document.getElementById("at");
  let typing = false;
  if (date) {
    date.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        typing = false;
        if (date.value && date.value !== date.defaultValue) submit();
      } else if (event.key.length === 1 || ["Backspace", "Delete", "ArrowUp", "ArrowDown"].includes(event.key)) {
        typing = true;
      }
    });
    date.addEventListener("blur", () => {
      if (typing && date.value && date.value !== date.defaultValue) submit();
      typing = false;
    });
  }

  // Rank with: a cloud's region chosen in its menu is what its box ranks, ticked at once.
  form.querySelectorAll("select[data-region-of]").forEach((select) => {
    select.addEventListener("change", () => {
      const box = form.querySelector('input[data-vendor="' + select.dataset.regionOf + '"]');
      box.value = select.value;
      box.checked = true;
    });
  });

  form.addEventListener("change", (event) => {
    const field = event.target;
    // The family picker redraws the answer itself (family-picker.js), without a reload.
    if (field.closest("[data-no-submit]")) return;
    if (field.id === "benchmark") {
      // Another benchmark's parameters and baseline do not apply: the page picks its own.
      form.querySelectorAll("[data-param], [data-baseline]").forEach((other) => {
        other.disabled = true;
      });
    }
    // A share of vCPUs busy chooses the worker count itself: the one chosen goes, and the
    // other way round (the question takes one of them).
    const busy = document.getElementById("busy");
    if (busy && field === busy) {
      form.querySelectorAll("[data-worker-param]").forEach((other) => { other.disabled = true; });
    } else if (busy && field.hasAttribute("data-worker-param") && field.value) {
      busy.value = "";
    }
    if (field.type === "date" && (!field.value || typing)) return; // a date still being typed
    submit();
  });

  // The address shows the question with every default the page chose, unless it was refused;
  // an empty answer's too.
  const answer = document.getElementById("comparison-answer");
  if (answer && answer.dataset.permalink && !document.querySelector(".error")) {
    window.history.replaceState(null, "", answer.dataset.permalink + window.location.hash);
  }
  // Delegated: family-picker.js puts a new toolbar (and a new permalink) in the page.
  document.addEventListener("click", (event) => {
    const button = event.target.closest("#copy-link");
    if (!button) return;
    const output = document.getElementById("copied");
    const text = new URL(button.dataset.permalink + window.location.hash, window.location.href).href;
    // The button says what happened for two seconds (the link beside it stays): a sign at the
    // place clicked.
    if (!button.dataset.label) button.dataset.label = button.textContent;
    const shown = (message, sign) => {
      output.textContent = message + text;
      button.textContent = sign;
      window.clearTimeout(button.signTimer);
      button.signTimer = window.setTimeout(() => { button.textContent = button.dataset.label; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        () => shown("Copied: ", "Copied"),
        () => shown("Link: ", "Copy it below"),
      );
    } else {
      shown("Link: ", "Copy it below");
    }
  });
})();
