/* Table cards: a "Print the cards" button (hidden without JavaScript, where the
 * browser's own Print does the same). */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    [].forEach.call(document.querySelectorAll("button[data-print]"), function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        window.print();
      });
    });
  });
})();
