/* The seating's print page: a "Print this page" button (hidden without JavaScript,
 * where the browser's own Print command does the same). No inline handlers: the
 * Content-Security-Policy allows none. */
(function () {
  "use strict";
  function boot() {
    [].forEach.call(document.querySelectorAll("button[data-print]"), function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
