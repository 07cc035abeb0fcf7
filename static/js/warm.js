/* A first visit (companion/web/inline.py): the page came with its stylesheets and scripts inside it.
   Once it has loaded, the same files are fetched by their hashed URLs (cached a year), and only when
   every one is in does the cookie tell the server this phone holds them: later pages link them. */
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me || !window.fetch || !window.Promise) return;
  var urls = (me.getAttribute("data-warm") || "").split(" ").filter(Boolean);
  var cookie = me.getAttribute("data-cookie") || "";
  var path = me.getAttribute("data-path") || "/";
  window.addEventListener("load", function () {
    Promise.all(urls.map(function (url) {
      return fetch(url, {credentials: "same-origin"}).then(function (res) {
        if (!res.ok) throw new Error(url);
        return res.blob();
      });
    })).then(function () {
      document.cookie = "assets=" + cookie + "; path=" + path + "; max-age=31536000; SameSite=Lax";
    }, function () {});
  });
})();
