/* Escoba del 15: the game's readable record (record.html).
 *
 * IMPRIMIR prints the page (escoba.css gives it black on white, without its
 * controls); it is hidden until this script shows it, since without the
 * script it could do nothing (the browser's own «Print» still works).
 */
(function () {
  "use strict";

  var button = document.getElementById("record-print");
  if (!button || typeof window.print !== "function") return;
  button.hidden = false;
  button.addEventListener("click", function () {
    window.print();
  });
})();
