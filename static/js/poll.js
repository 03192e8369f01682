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

  // What the reader looks at stays where it is on the screen. The fresh fragment replaces
  // every node of the region, so the browser's own scroll anchoring has nothing to hold on
  // to: an announcement put up above a phone's score card moved the card 128 px under the
  // reader's eyes. The anchor is the first block at the top of the screen, found again in
  // the fresh region by its kind and its words (the nth of that kind with those words).
  var ANCHORS = "h1, h2, h3, p, li, tr, dt, dd, caption, figure";

  function words(el) {
    return el.tagName + "|" + el.textContent.replace(/\s+/g, " ").trim();
  }

  function anchorOf(region) {
    if (window.scrollY <= 0) return null;  // at the top: the page may grow under the reader
    var blocks = region.querySelectorAll(ANCHORS), seen = {};
    for (var i = 0; i < blocks.length; i += 1) {
      var key = words(blocks[i]), top = blocks[i].getBoundingClientRect().top;
      if (top >= 0 && blocks[i].getClientRects().length) {
        return { id: region.id, key: key, nth: seen[key] || 0, top: top };
      }
      seen[key] = (seen[key] || 0) + 1;
    }
    return null;
  }

  function keep(anchor) {
    var region = anchor && anchor.id && document.getElementById(anchor.id);
    if (!region) return;
    var blocks = region.querySelectorAll(ANCHORS), nth = 0;
    for (var i = 0; i < blocks.length; i += 1) {
      if (words(blocks[i]) !== anchor.key) continue;
      if (nth === anchor.nth) {
        var moved = blocks[i].getBoundingClientRect().top - anchor.top;
        if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
        return;
      }
      nth += 1;
    }
  }

  function fetchFragment(region) {
    if (!due(region) || region.dataset.pollBusy) return;
    var url = new URL(region.dataset.pollUrl, window.location.href);
    url.searchParams.set("rev", region.dataset.pollRev || "");
    region.dataset.pollBusy = "1";
    var anchor = null;
    var done = function () { delete region.dataset.pollBusy; };
    // Taken when the answer comes, just before the swap: the reader may have scrolled since.
    var before = function (event) {
      if (event.detail.elt === region && event.detail.shouldSwap) anchor = anchorOf(region);
    };
    document.body.addEventListener("htmx:beforeSwap", before);
    window.htmx
      .ajax("GET", url.pathname + url.search, { source: region, target: region, swap: "outerHTML" })
      .then(function () {
        document.body.removeEventListener("htmx:beforeSwap", before);
        keep(anchor);
        done();
      }, function () {
        document.body.removeEventListener("htmx:beforeSwap", before);
        done();
      });
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
