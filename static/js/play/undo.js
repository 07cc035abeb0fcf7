/* "Annuler" on the edit page: undo this phone's last change, then the one before, and so on
   (companion/gamelog.py). After autosave.js. What is still to send goes first; then the server
   says which change is this phone's last and what undoing it sends (`data-undo-last`, JSON), and
   autosave.js sends it as any save (Play.undo): a field another phone changed since is a conflict,
   shown as any other. Without JavaScript the button posts the form to the undo URL itself. */
(function () {
  "use strict";

  var Play = window.Play || {};
  var form = document.getElementById("end-state");
  var button = document.querySelector("[data-undo]");
  if (!form || !button || !window.fetch || !Play.undo || !Play.whenSaved) return;
  var busy = false;

  function done() { busy = false; button.removeAttribute("aria-busy"); }

  button.addEventListener("click", function (e) {
    e.preventDefault();
    if (busy) return;
    busy = true;
    button.setAttribute("aria-busy", "true");
    var state = document.getElementById("save-state");
    var was = state ? [state.textContent, state.className.replace(/^save-state ?/, "")] : null;
    Play.say(T("undoing"), "busy");
    Play.whenSaved(function (ready) {
      if (!ready) {  // a conflict or a refusal first: its own notice says what to do
        if (was && state.textContent === T("undoing")) Play.say(was[0], was[1]);
        done();
        return;
      }
      fetch(button.dataset.undo, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (!data) Play.say(T("not_saved"), "bad");
          else if (!data.ok) Play.say(T("nothing_to_undo"), "");
          else Play.undo(data.changes, data.id);
        })
        .catch(function () { Play.say(T("offline"), "bad"); })
        .then(done);
    });
  });
})();
