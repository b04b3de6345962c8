// Lets a file be dropped anywhere on the upload form's drop zone, not only on the input.
(function () {
  "use strict";
  const zone = document.getElementById("drop-zone");
  const input = document.getElementById("id_file");
  if (!zone || !input) return;
  ["dragenter", "dragover"].forEach((name) =>
    zone.addEventListener(name, (event) => { event.preventDefault(); zone.classList.add("over"); }));
  ["dragleave", "drop"].forEach((name) =>
    zone.addEventListener(name, () => zone.classList.remove("over")));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer.files.length) input.files = event.dataTransfer.files;
  });
})();
