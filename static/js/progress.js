/* A restore's progress page (templates/play/import_progress.html), with JavaScript: the page asks its
   own address again in the background (the server waits a few seconds for the restore before it
   answers) and changes only its status, which a screen reader hears (role=status); nothing reloads
   under the player. Once the answer is no longer a progress (a redirect to "Mes parties", the file's
   problems, a missing job), the page is loaded again for real, so its message shows once. Without
   JavaScript, the <meta> refresh in <noscript> does the asking. */
(function () {
  "use strict";
  var status = document.querySelector("[data-progress]");
  if (!status || !window.fetch || !window.DOMParser) return;
  var again = 1000 * (parseFloat(status.dataset.again) || 1);

  function ask() {
    fetch(location.href, {credentials: "same-origin", redirect: "manual", cache: "no-store",
                          headers: {"Accept": "text/html"}})
      .then(function (response) {
        if (response.type === "opaqueredirect" || !response.ok) return null;
        return response.text();
      })
      .then(function (html) {
        var next = html && new DOMParser().parseFromString(html, "text/html").querySelector("[data-progress]");
        if (!next) { location.reload(); return; }
        if (next.innerHTML !== status.innerHTML) status.innerHTML = next.innerHTML;
        status.dataset.state = next.dataset.state || "";
        setTimeout(ask, again);
      }, function () { setTimeout(ask, 5 * again); });  // offline a moment: ask again later
  }
  setTimeout(ask, again);
})();
