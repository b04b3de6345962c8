// The finder table's column picker ("compare selected" is compare-picker.js). Filtering and sorting
// are the server's (the URL holds them, and the CSV export is the same rows); the picker
// only hides columns, and keeps its choice in the URL (`columns=`) so a link shows the same.
(function () {
  "use strict";
  // Another benchmark has parameters of its own: the old one's are not sent with it.
  const benchmark = document.getElementById("benchmark");
  if (benchmark) {
    benchmark.addEventListener("change", () => {
      document.querySelectorAll("#finder-form [data-param]").forEach((field) => {
        field.disabled = true;
      });
    });
  }

  const table = document.getElementById("finder-table");
  if (!table) return;

  const toggles = Array.from(document.querySelectorAll("[data-column-toggle]"));

  function shownColumns() {
    return ["name", ...toggles.filter((box) => box.checked).map((box) => box.value)].join(",");
  }

  function withColumns(href, columns) {
    const url = new URL(href, window.location.href);
    url.searchParams.set("columns", columns);
    return url.pathname + url.search;
  }

  function keepColumns() {
    const columns = shownColumns();
    window.history.replaceState(null, "", withColumns(window.location.href, columns));
    // The sort links and the filter form carry the choice too.
    table.querySelectorAll("a[data-sort]").forEach((link) => {
      link.href = withColumns(link.href, columns);
    });
    const form = document.getElementById("finder-form");
    let field = document.getElementById("columns-field");
    if (form && !field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "columns";
      field.id = "columns-field";
      form.appendChild(field);
    }
    if (field) field.value = columns;
  }

  toggles.forEach((box) => {
    box.addEventListener("change", () => {
      table.classList.toggle(`hide-${box.value}`, !box.checked);
      keepColumns();
    });
  });
})();
