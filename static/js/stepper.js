/* − / + steppers beside a number field, for every page that has them (the edit page's fields,
   play/fields.js; the tie page, tie.js): a button each side, a tap adds or takes one, within the
   field's min (0 when it has none) and max. A blank field's "+" gives its first allowed number. */
(function () {
  "use strict";

  function wrap(input, minus, plus) {
    var box = document.createElement("span");
    box.className = "stepper";
    input.parentNode.insertBefore(box, input);
    [["-1", "\u2212", minus], null, ["1", "+", plus]].forEach(function (b) {
      if (!b) { box.appendChild(input); return; }
      var btn = document.createElement("button");
      btn.type = "button";
      btn.className = "step";
      btn.dataset.step = b[0];
      btn.textContent = b[1];
      btn.setAttribute("aria-label", b[2]);
      box.appendChild(btn);
    });
  }

  /* The field a click stepped (its value changed), or null when the click was not on a step. */
  function stepped(e) {
    var btn = e.target.closest("button[data-step]");
    if (!btn) return null;
    var input = btn.parentNode.querySelector("input");
    var min = input.hasAttribute("min") ? parseInt(input.getAttribute("min"), 10) : 0;
    var max = input.hasAttribute("max") ? parseInt(input.getAttribute("max"), 10) : Infinity;
    var value = parseInt(input.value, 10);
    var step = parseInt(btn.dataset.step, 10);
    value = isNaN(value) ? (step > 0 ? Math.max(min, 0 + step) : min) : value + step;
    input.value = String(Math.min(max, Math.max(min, value)));
    return input;
  }

  window.Stepper = {wrap: wrap, stepped: stepped};
})();
