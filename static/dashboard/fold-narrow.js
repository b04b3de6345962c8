// Folds what is marked `details[data-fold-narrow]` on narrow screens and unfolds it on wide
// ones: the site's links into "Menu", the finder's filters, so that a phone's first screen is
// the page's answer. Run where they are parsed (not deferred), so that a phone never shows
// them open; again after each page's own (those already folded are left alone). What holds an
// error stays open: the visitor has to see it.
(function () {
  "use strict";
  const wide = window.matchMedia("(min-width: 641px)");
  document.querySelectorAll("details[data-fold-narrow]:not([data-folding])").forEach((box) => {
    box.dataset.folding = "";
    const fit = () => { box.open = wide.matches || box.querySelector(".error") !== null; };
    fit();
    wide.addEventListener("change", fit);
  });
})();
