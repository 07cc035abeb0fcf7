/* The step this phone is on, told to the table's screen (companion/views/screen.py): when the page
   shows a step (steps.js's "play:step"), when it comes back to the front, at most once a minute
   while the player types (the screen forgets a phone it has not heard of for 15 minutes), and ""
   when the page goes away. Each report carries this phone's clock, so a late "" from a page left
   never wipes out what the next page said. Last of the play scripts; nothing depends on it. */
(function () {
  "use strict";

  var form = document.getElementById("end-state");
  if (!form || !form.dataset.where || !window.fetch || !window.FormData) return;
  var csrf = form.querySelector("input[name=csrf_token]");
  var REFRESH = 60 * 1000;
  var told = null, toldAt = 0;

  function current() {
    if (window.Play && window.Play.stepOn) return window.Play.stepOn;
    var stage = form.querySelector("[data-stage]");  /* a single step: steps.js shows them all */
    return stage ? stage.id : "";
  }

  function tell(step, leaving) {
    var body = new FormData();
    body.append("step", step);
    body.append("at", String(Date.now()));
    if (csrf) body.append("csrf_token", csrf.value);
    told = step;
    toldAt = Date.now();
    if (leaving && navigator.sendBeacon && navigator.sendBeacon(form.dataset.where, body)) return;
    fetch(form.dataset.where, { method: "POST", body: body, credentials: "same-origin", keepalive: !!leaving })
      .catch(function () { told = null; /* said again at the next chance */ });
  }

  document.addEventListener("play:step", function (e) { if (e.detail !== told) tell(e.detail); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) tell(current()); });
  form.addEventListener("input", function () {
    if (Date.now() - toldAt > REFRESH) tell(current());
  });
  window.addEventListener("pagehide", function () { tell("", true); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) tell(current()); });
  tell(current());
})();
