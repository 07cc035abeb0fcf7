/* The "settle a tie" page (templates/play/tie.html), enhanced: − / + steppers on the numbers, the
   names typed shown on the holder chips and beside each number, the rows of empty seats hidden, and
   the keyboard's "suivant" (Enter) moving to the next field. Without JS: plain fields, "Joueur 3". */
(function () {
  "use strict";

  var form = document.getElementById("tie");
  if (!form) return;
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  /* ---------------------------------------------------------------- steppers */

  $all("input[data-stepper]", form).forEach(function (input) {
    Stepper.wrap(input, form.dataset.minus, form.dataset.plus);  // static/js/stepper.js
  });
  form.addEventListener("click", Stepper.stepped);

  /* ---------------------------------------------------------------- names on chips and rows */

  var seats = $all("input[data-seat]", form);

  function refresh() {
    var any = {};
    seats.forEach(function (input) {
      var seat = input.dataset.seat;
      var name = input.value.trim();
      any[seat] = !!name;
      $all('[data-label="' + seat + '"]', form).forEach(function (el) {
        if (!el.dataset.fallback) el.dataset.fallback = el.textContent;
        el.textContent = name || el.dataset.fallback;
      });
    });
    /* A seat left empty has no chip and no number: the first two (a tie has two) always show. */
    seats.forEach(function (input, i) {
      var seat = input.dataset.seat;
      var shown = any[seat] || (seat.charAt(0) === "t" && i < 2);
      $all('[data-chip="' + seat + '"], [data-row-of="' + seat + '"]', form).forEach(function (el) {
        var checked = el.querySelector("input:checked");
        el.hidden = !shown && !checked && !el.classList.contains("has-error");
      });
    });
  }
  form.addEventListener("input", function (e) { if (e.target.dataset.seat) refresh(); });
  refresh();

  /* ---------------------------------------------------------------- "suivant" */

  form.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || e.target.tagName !== "INPUT" || e.target.type !== "text") return;
    var fields = $all("input[type=text]", form).filter(function (el) { return el.offsetParent !== null; });
    var next = fields[fields.indexOf(e.target) + 1];
    if (!next) return; /* the last field: Enter sends the form */
    e.preventDefault();
    next.focus();
  });

  var answer = document.getElementById("reponse");
  if (answer) answer.focus();
})();
