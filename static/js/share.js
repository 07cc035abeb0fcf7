/* Links another phone must open (templates/_phone_link.html): "Copier" writes the link to the
   clipboard where the browser gives one (HTTPS or this machine); over plain http on a room's Wi-Fi it
   has none, so the link is selected for the phone's own copy menu (and copied by the older command
   where that still works). "Partager" opens the phone's share sheet where the browser offers it.
   The QR code beside the link needs no script. */
(function () {
  "use strict";

  function select(input) {
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
  }

  function legacyCopy(input) {
    select(input);
    try { return document.execCommand("copy"); } catch (err) { return false; }
  }

  function said(btn, help, copied) {
    btn.textContent = copied ? T("copied") : T("selected");
    if (help) help.hidden = copied;
  }

  document.querySelectorAll("[data-copy]").forEach(function (btn) {
    var input = document.getElementById(btn.dataset.copy);
    var help = document.querySelector('[data-copy-help="' + btn.dataset.copy + '"]');
    if (!input) return;
    btn.hidden = false;
    btn.addEventListener("click", function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(
          function () { said(btn, help, true); },
          function () { said(btn, help, legacyCopy(input)); });
      } else {
        said(btn, help, legacyCopy(input));
      }
    });
  });

  document.querySelectorAll("[data-share]").forEach(function (btn) {
    var input = document.getElementById(btn.dataset.share);
    if (!input || typeof navigator.share !== "function") return;
    btn.hidden = false;
    btn.addEventListener("click", function () {
      navigator.share({ url: input.value }).catch(function () { /* the player closed the sheet */ });
    });
  });
})();
