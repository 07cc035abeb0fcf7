/* The player's time zone: kept in a cookie so the server writes times and dates where the table
   plays (history, results, PDF); the first page seen before the cookie existed shows its times in
   UTC, so those (<time data-local>) are rewritten here in the phone's own zone. */
(function () {
  "use strict";
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (err) { return; }
  if (!zone || !/^[A-Za-z0-9_+\-\/]+$/.test(zone)) return;
  var had = document.cookie.split("; ").indexOf("companion_tz=" + zone) >= 0;
  if (!had) {
    document.cookie = "companion_tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
    var months = T("months").split("|");
    Array.prototype.forEach.call(document.querySelectorAll("time[data-local]"), function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (isNaN(d)) return;
      var parts = {};
      new Intl.DateTimeFormat("fr-FR", { timeZone: zone, year: "numeric", month: "numeric", day: "numeric",
                                         hour: "numeric", minute: "2-digit", hour12: false })
        .formatToParts(d).forEach(function (p) { parts[p.type] = p.value; });
      t.textContent = T("when", {day: parseInt(parts.day, 10), month: months[parseInt(parts.month, 10) - 1],
                                 year: parts.year, hour: parseInt(parts.hour, 10), minute: parts.minute});
    });
  }
})();
