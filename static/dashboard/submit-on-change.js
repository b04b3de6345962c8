// Submits a form as soon as one of its fields marked data-submit-on-change changes (the
// Content-Security-Policy allows no inline onchange handlers).
(function () {
  "use strict";
  document.addEventListener("change", (event) => {
    const field = event.target;
    if (field.form && field.hasAttribute("data-submit-on-change")) field.form.requestSubmit();
  });
})();
