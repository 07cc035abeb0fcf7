/* The page's texts for the scripts: JSON in <body data-strings> (written by the server in the reader's
   language, companion/web/jsstrings.py). T("key", {name: value}) fills "{name}"; an unknown key says itself. */
(function () {
  "use strict";
  var table = {};
  try { table = JSON.parse(document.body.getAttribute("data-strings") || "{}"); } catch (err) { table = {}; }
  window.T = function (key, values) {
    var text = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : key;
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(String(values[name])); });
    return text;
  };
})();
