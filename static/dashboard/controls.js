// The comparison form: each change shows at once, a new benchmark starts from its own
// defaults, and the address bar always holds the whole question (the permalink).
(function () {
  "use strict";
  const form = document.getElementById("comparison-form");
  if (!form) return;

  function submit() {
    // Empty optional choices stay out of the address.
    form.querySelectorAll("[data-optional]").forEach((field) => {
      if (!field.value) field.disabled = true;
    });
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  form.addEventListener("change", (event) => {
    const field = event.target;
    if (field.id === "benchmark") {
      // Another benchmark's parameters and baseline do not apply: the page picks its own.
      form.querySelectorAll("[data-param], [data-baseline]").forEach((other) => {
        other.disabled = true;
      });
    }
    if (field.type === "date" && !field.value) return; // a date still being typed
    submit();
  });

  const copy = document.getElementById("copy-link");
  if (copy) {
    const link = () => new URL(copy.dataset.permalink + window.location.hash, window.location.href).href;
    // The address shows the question with every default the page chose, unless it was refused.
    if (!document.querySelector(".error")) {
      window.history.replaceState(null, "", copy.dataset.permalink + window.location.hash);
    }
    copy.addEventListener("click", () => {
      const output = document.getElementById("copied");
      const text = link();
      const shown = (message) => { output.textContent = message + text; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(() => shown("Copied: "), () => shown("Link: "));
      } else {
        shown("Link: ");
      }
    });
  }
})();
