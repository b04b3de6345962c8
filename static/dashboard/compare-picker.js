// "Compare selected": 2 to 8 instance types ticked (checkboxes `name="types"` tied to
// #compare-form, in the finder's table or the comparison page's), sent to /compare/ as one
// comma-separated `types`, with the page's own prices (region, regions, purchase option, day,
// basis), so that compare prices each type where the page did. PricebenchComparePicker.toggle(name) ticks or unticks a type from
// elsewhere (a click on its bar). Listens on the document: a table redrawn in place keeps it.
window.PricebenchComparePicker = (function () {
  "use strict";
  const most = 8;
  // The page's parameters that say how its types are priced, which compare takes too.
  const PRICES = ["region", "regions", "purchase_option", "at", "basis"];
  const boxes = () => Array.from(document.querySelectorAll("input[name='types'][form='compare-form']"));
  const ticked = () => boxes().filter((box) => box.checked);

  function update(changed) {
    const form = document.getElementById("compare-form");
    if (!form) return;
    if (changed && changed.checked && ticked().length > most) changed.checked = false;
    const number = ticked().length;
    document.getElementById("selected-count").textContent = String(number);
    document.getElementById("compare-selected").disabled = number < 2;
  }

  document.addEventListener("change", (event) => {
    if (event.target.name === "types" && event.target.getAttribute("form") === "compare-form") {
      update(event.target);
    }
  });
  document.addEventListener("submit", (event) => {
    if (event.target.id !== "compare-form") return;
    event.preventDefault();
    const names = ticked().map((box) => box.value);
    const asked = new URLSearchParams(window.location.search);
    const question = new URLSearchParams({ types: names.join(",") });
    PRICES.forEach((name) => {
      const values = asked.getAll(name).filter(Boolean);
      if (values.length) question.set(name, values.join(","));
    });
    window.location.assign(`${event.target.action}?${question.toString()}`);
  });

  function toggle(name) {
    const box = boxes().find((candidate) => candidate.value === name);
    if (!box) return;
    box.checked = !box.checked;
    update(box);
  }

  update(null);
  return { toggle: toggle, update: update };
})();
