/* The table's screen (templates/play/screen.html): asks the server every few seconds whether the
   game or its phones' steps changed since the version it holds (204: nothing new), and puts the
   board the answer brings in place. Quiet while the page is hidden; asks at once when shown again.
   After a failure (the network, the server restarting) it says so and asks again less often. */
(function () {
  "use strict";

  var box = document.getElementById("screen");
  if (!box || !window.fetch) return;
  var board = document.getElementById("screen-board");
  var live = box.querySelector("[data-live]"), lost = box.querySelector("[data-lost]");
  var version = box.dataset.version;
  var every = (+box.dataset.every || 3) * 1000;
  var timer = null, asking = false;

  function heard(ok) {
    live.hidden = !ok;
    lost.hidden = ok;
  }

  function later(ms) {
    clearTimeout(timer);
    timer = document.hidden ? null : setTimeout(ask, ms);
  }

  function ask() {
    if (asking) return;
    asking = true;
    var failed = false;
    fetch(box.dataset.poll + "?version=" + encodeURIComponent(version),
          { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (r) {
        if (r.status === 204) return null;
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      })
      .then(function (answer) {
        if (answer) {
          version = answer.version;
          board.innerHTML = answer.html;  /* drawn and escaped by the server (play/_screen_board.html) */
        }
        heard(true);
      })
      .catch(function () { failed = true; heard(false); })
      .then(function () { asking = false; later(failed ? every * 3 : every); });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); timer = null; } else ask();
  });
  heard(true);
  later(every);
})();
