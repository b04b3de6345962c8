// While a run is pending, ask the API for its status and reload the page once it is parsed.
(function () {
  "use strict";
  const element = document.getElementById("run-status");
  if (!element || element.dataset.status !== "pending") return;
  const poll = () =>
    fetch(element.dataset.statusUrl, { headers: { Accept: "application/json" } })
      .then((response) => response.json())
      .then((run) => (run.status === "pending" ? setTimeout(poll, 1000) : window.location.reload()))
      .catch(() => setTimeout(poll, 3000));
  setTimeout(poll, 500);
})();
