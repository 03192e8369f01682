/* The one polling mechanism (architecture.md, "Live updates").
 *
 * A live region is an element with data-poll-url (the URL of its fragment),
 * data-poll-rev (the revision it shows) and data-poll-every (seconds). Every
 * few seconds, while the page is visible, it asks for the fragment with
 * ?rev=<revision>; the server answers 204 No Content when nothing changed
 * (htmx then leaves the page alone) or the fresh fragment, which replaces the
 * region and carries the new revision. A region with data-poll-stop polls no
 * more (nothing can change there any longer); one with data-poll-hidden polls
 * in a hidden tab too; one with data-poll-now asks at once when it appears (a region the
 * page leaves empty, to stay cheap, and fills right after). No inline script, no eval: the
 * Content-Security-Policy allows neither.
 */
(function () {
  "use strict";
  var DEFAULT_SECONDS = 5;

  function due(region) {
    return region.isConnected && !region.hasAttribute("data-poll-stop");
  }

  function fetchFragment(region) {
    if (!due(region) || region.dataset.pollBusy) return;
    var url = new URL(region.dataset.pollUrl, window.location.href);
    url.searchParams.set("rev", region.dataset.pollRev || "");
    region.dataset.pollBusy = "1";
    var done = function () { delete region.dataset.pollBusy; };
    window.htmx
      .ajax("GET", url.pathname + url.search, { source: region, target: region, swap: "outerHTML" })
      .then(done, done);
  }

  function tick(region) {
    if (!due(region)) return;  // replaced by a fresh fragment, or stopped: its timer ends
    // data-poll-hidden: a region that must be heard of in a hidden tab too (td-alerts.js).
    if (document.visibilityState === "visible" || region.hasAttribute("data-poll-hidden")) {
      fetchFragment(region);
    }
    schedule(region);
  }

  function schedule(region) {
    var seconds = parseFloat(region.dataset.pollEvery) || DEFAULT_SECONDS;
    window.setTimeout(function () { tick(region); }, seconds * 1000);
  }

  function start(root) {
    var regions = root.querySelectorAll ? root.querySelectorAll("[data-poll-url]") : [];
    if (root.matches && root.matches("[data-poll-url]")) regions = [root].concat([].slice.call(regions));
    [].forEach.call(regions, function (region) {
      if (region.dataset.pollStarted) return;
      region.dataset.pollStarted = "1";
      if (region.hasAttribute("data-poll-now")) fetchFragment(region);
      schedule(region);
    });
  }

  // Coming back to a hidden tab: look at once instead of waiting for the next tick.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    [].forEach.call(document.querySelectorAll("[data-poll-url]"), function (region) {
      fetchFragment(region);
    });
  });

  function boot() {
    if (!window.htmx) return;
    window.htmx.onLoad(start);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
