// Folds the site's links into the "Menu" on narrow screens, and unfolds them on wide ones. Run
// where the menu is parsed (not deferred), so that a phone never shows the open menu.
(function () {
  "use strict";
  const menu = document.getElementById("site-menu");
  if (!menu) return;
  const wide = window.matchMedia("(min-width: 641px)");
  const fit = () => { menu.open = wide.matches; };
  fit();
  wide.addEventListener("change", fit);
})();
