/* The database refused a change (tournament/faults.py): its 503 answer to an htmx entry is
 * an alert that the server puts at the top of the form it was sent from (HX-Retarget,
 * HX-Reswap). htmx swaps no error answer by itself, so this lets that one be swapped in,
 * after taking away the alert of an earlier try; the form keeps what was typed, and the
 * alert is brought into view on a phone.
 */
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status !== 503 || !xhr.getResponseHeader("X-Database-Fault")) return;
    [].forEach.call(document.querySelectorAll(".fault-alert"), function (old) { old.remove(); });
    // Sent from outside any form (the server's "closest form" found none): the main part.
    if (!event.detail.target) {
      event.detail.target = document.querySelector("main") || document.body;
    }
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  });

  document.addEventListener("htmx:afterSwap", function () {
    var alert = document.querySelector(".fault-alert");
    if (!alert || alert.dataset.shown) return;
    alert.dataset.shown = "1";  // once: a later swap (a poll) must not pull the page back
    var box = alert.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) alert.scrollIntoView({ block: "start" });
  });
})();
