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
    var wrap = document.createElement("span");
    wrap.className = "stepper";
    input.parentNode.insertBefore(wrap, input);
    [["-1", "\u2212", form.dataset.minus], null, ["1", "+", form.dataset.plus]].forEach(function (b) {
      if (!b) { wrap.appendChild(input); return; }
      var btn = document.createElement("button");
      btn.type = "button";
      btn.className = "step";
      btn.dataset.step = b[0];
      btn.textContent = b[1];
      btn.setAttribute("aria-label", b[2]);
      wrap.appendChild(btn);
    });
  });

  form.addEventListener("click", function (e) {
    var btn = e.target.closest("button[data-step]");
    if (!btn) return;
    var input = btn.parentNode.querySelector("input");
    var min = parseInt(input.getAttribute("min") || "0", 10);
    var max = parseInt(input.getAttribute("max") || "999", 10);
    var value = parseInt(input.value, 10);
    value = isNaN(value) ? min : value;
    input.value = String(Math.min(max, Math.max(min, value + parseInt(btn.dataset.step, 10))));
  });

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
