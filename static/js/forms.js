/* Forms: a submit button disables itself while its request is in flight, so a
 * double click sends one request (the server also refuses a second one: every
 * TD form carries a one-time key). Re-enabled when the page comes back from the
 * back/forward cache. */
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || form.hasAttribute("data-no-disable")) return;
    window.setTimeout(function () {
      [].forEach.call(form.querySelectorAll("button[type=submit], button:not([type])"), function (b) {
        b.disabled = true;
        b.setAttribute("aria-busy", "true");
      });
    }, 0);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form");
    if (!form) return;
    [].forEach.call(form.querySelectorAll("button[aria-busy=true]"), function (b) {
      b.disabled = false;
      b.removeAttribute("aria-busy");
    });
  });
  window.addEventListener("pageshow", function () {
    [].forEach.call(document.querySelectorAll("button[aria-busy=true]"), function (b) {
      b.disabled = false;
      b.removeAttribute("aria-busy");
    });
  });
})();
