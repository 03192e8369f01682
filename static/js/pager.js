/* A long list on a projector pages through by itself (the TD's and the public big screens).
 *
 * An element with data-pager shows as many of its items as fit on the screen (or
 * data-pager-size of them) and moves on to the next ones every data-pager-seconds
 * (default 10), back to the first after the last. Its items are its data-pager-item
 * descendants or, for a <table data-pager>, its body rows. An element with
 * data-pager-status in the same live region says which items are shown.
 *
 * Without JavaScript the whole list shows. When a poll replaces the region
 * (static/js/poll.js), the new list carries on from the page the old one showed. When the
 * window changes size (the projector's resolution set, a screen turned, a browser window
 * dragged to the big screen), the items are measured again and the first one shown stays
 * in view. Items are hidden with the `hidden` attribute: the Content-Security-Policy
 * allows no inline styles.
 */
(function () {
  "use strict";
  var DEFAULT_SECONDS = 10;
  var RESIZE_SETTLE_MS = 250;  // measure once the window has stopped changing
  var EDGE = 8;  // px kept free at the bottom of the screen
  var pageOf = {};  // the page each pager (by its region's id) showed last
  var running = [];

  function keyOf(element) {
    var holder = element.closest("[id]");
    return holder ? holder.id : "pager";
  }

  function itemsOf(element) {
    var body = element.tagName === "TABLE" ? element.tBodies[0] : null;
    return [].slice.call(body ? body.rows : element.querySelectorAll("[data-pager-item]"));
  }

  function statusOf(element) {
    var region = element.closest("[data-poll-url]") || document;
    return region.querySelector("[data-pager-status]");
  }

  function isAfter(node, element) {
    return Boolean(element.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING);
  }

  function fitting(pager) {
    var fixed = parseInt(pager.element.dataset.pagerSize, 10);
    if (fixed > 0) return fixed;
    pager.items.forEach(function (item) { item.hidden = false; });
    var bottom = window.innerHeight - EDGE;
    var status = statusOf(pager.element);
    if (status && isAfter(status, pager.element)) {
      if (!status.textContent) status.textContent = "–";  // an empty line has no height
      bottom -= status.getBoundingClientRect().height + EDGE;
    }
    var count = 0;
    pager.items.forEach(function (item) {
      if (item.getBoundingClientRect().bottom <= bottom) count += 1;
    });
    return Math.max(1, count);
  }

  function show(pager) {
    var items = pager.items;
    var pages = Math.ceil(items.length / pager.size);
    pager.page = Math.min(pager.page, pages - 1);
    pageOf[pager.key] = pager.page;
    var start = pager.page * pager.size;
    var end = Math.min(start + pager.size, items.length);
    items.forEach(function (item, index) { item.hidden = index < start || index >= end; });
    var status = statusOf(pager.element);
    if (status) status.textContent = pages > 1 ? (start + 1) + "–" + end + " / " + items.length : "";
  }

  function measure(pager) {
    var first = pager.page * pager.size;
    pager.size = fitting(pager);
    pager.page = Math.floor(first / pager.size);
    show(pager);
  }

  function turn(pager) {
    var pages = Math.ceil(pager.items.length / pager.size);
    if (pages <= 1) return;
    pager.page = (pager.page + 1) % pages;
    show(pager);
  }

  function setUp(element) {
    if (element.dataset.pagerStarted) return;
    element.dataset.pagerStarted = "1";
    var items = itemsOf(element);
    if (!items.length) return;
    var key = keyOf(element);
    var pager = { element: element, items: items, key: key, size: 1, page: 0 };
    pager.size = fitting(pager);
    pager.page = pageOf[key] || 0;
    show(pager);
    running.push(pager);
    var seconds = parseFloat(element.dataset.pagerSeconds) || DEFAULT_SECONDS;
    pager.timer = window.setInterval(function () {
      if (element.isConnected) turn(pager);
      else stop(pager);  // replaced by a fresh region: that one pages on
    }, seconds * 1000);
  }

  function stop(pager) {
    window.clearInterval(pager.timer);
    running = running.filter(function (other) { return other !== pager; });
  }

  var settling = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(settling);
    settling = window.setTimeout(function () {
      running.slice().forEach(function (pager) {
        if (pager.element.isConnected) measure(pager);
        else stop(pager);
      });
    }, RESIZE_SETTLE_MS);
  });

  function start(root) {
    if (root.matches && root.matches("[data-pager]")) setUp(root);
    if (root.querySelectorAll) [].forEach.call(root.querySelectorAll("[data-pager]"), setUp);
  }

  function boot() {
    if (window.htmx) window.htmx.onLoad(start);
    else start(document);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
