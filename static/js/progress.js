/* A restore's progress page (templates/play/import_progress.html), with JavaScript: the page asks its
   own address again in the background (the server waits a few seconds for the restore before it
   answers) and changes only its status, which a screen reader hears (role=status); nothing reloads
   under the player. Once the restore is over (the server answers these asks with a bare 204, and a
   missing job with a 404), the page is loaded again for real: that load shows "Mes parties" with what
   was added, or the file's problems. Without JavaScript, the <meta> refresh in <noscript> asks. */
(function () {
  "use strict";
  var status = document.querySelector("[data-progress]");
  if (!status || !window.fetch || !window.DOMParser) return;
  var again = 1000 * (parseFloat(status.dataset.again) || 1);

  function later() { setTimeout(ask, 5 * again); }  // offline or busy a moment: ask again later

  function ask() {
    fetch(location.pathname + "?poll=1", {credentials: "same-origin", cache: "no-store",
                                          headers: {"Accept": "text/html"}})
      .then(function (response) {
        if (response.status === 204 || response.status === 404) { location.reload(); return; }
        if (response.status !== 200) { later(); return; }
        return response.text().then(function (html) {
          var next = new DOMParser().parseFromString(html, "text/html").querySelector("[data-progress]");
          if (!next) { location.reload(); return; }
          if (next.innerHTML !== status.innerHTML) status.innerHTML = next.innerHTML;
          status.dataset.state = next.dataset.state || "";
          setTimeout(ask, again);
        });
      })
      .catch(later);
  }
  setTimeout(ask, again);
})();
