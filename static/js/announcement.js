/* The TD's announcement banner ([data-announcement]) comes down when its end time
 * (data-ends-at, ISO 8601) passes. The end time passing changes no revision, so no poll
 * brings a region without it: the page hides it by the clock, at once if the page was
 * opened (or a kept region swapped in) after the end. The server leaves an ended
 * announcement out of every region it renders after that. No inline script (CSP).
 */
(function () {
  "use strict";

  function watch(banner) {
    if (banner.dataset.announcementWatched) return;
    banner.dataset.announcementWatched = "1";
    var ends = Date.parse(banner.dataset.endsAt);
    if (isNaN(ends)) return;
    var hide = function () { banner.hidden = true; };
    var left = ends - Date.now();
    if (left <= 0) hide();
    // A timer can fire early or late by a little (a sleeping phone): check again then.
    else window.setTimeout(function check() {
      if (Date.now() >= ends) hide();
      else window.setTimeout(check, Math.max(ends - Date.now(), 250));
    }, left);
  }

  function start(root) {
    var found = root.querySelectorAll ? root.querySelectorAll("[data-announcement][data-ends-at]") : [];
    [].forEach.call(found, watch);
    if (root.matches && root.matches("[data-announcement][data-ends-at]")) watch(root);
  }

  function boot() {
    start(document);
    if (window.htmx) window.htmx.onLoad(start);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
