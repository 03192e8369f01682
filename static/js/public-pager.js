/* The big screen pages through a long list by itself (the public projector views).
 *
 * A container with data-pager shows as many of its data-pager-item children as fit on
 * the screen (or data-pager-size of them), and moves on to the next ones every
 * data-pager-seconds (default 10), back to the first after the last. An element with
 * data-pager-status in the same live region says which items are shown. Without
 * JavaScript the whole list shows. When a poll replaces the region (static/js/poll.js)
 * the new list carries on from the page the old one showed. Items are hidden with the
 * `hidden` attribute: the Content-Security-Policy allows no inline styles.
 */
(function () {
  "use strict";
  var DEFAULT_SECONDS = 10;
  var pageOf = {};  // the page each pager (by its region's id) showed last

  function keyOf(pager) {
    var holder = pager.closest("[id]");
    return holder ? holder.id : "pager";
  }

  function fitting(pager, items) {
    var fixed = parseInt(pager.dataset.pagerSize, 10);
    if (fixed > 0) return fixed;
    items.forEach(function (item) { item.hidden = false; });
    var bottom = window.innerHeight - 8;
    var count = 0;
    items.forEach(function (item) {
      if (item.getBoundingClientRect().bottom <= bottom) count += 1;
    });
    return Math.max(1, count);
  }

  function statusOf(pager) {
    var region = pager.closest("[data-poll-url]") || document;
    return region.querySelector("[data-pager-status]");
  }

  function show(pager, items, size, page) {
    var start = page * size;
    items.forEach(function (item, index) { item.hidden = index < start || index >= start + size; });
    var status = statusOf(pager);
    if (status) {
      status.textContent = (start + 1) + "–" + Math.min(start + size, items.length) + " / " + items.length;
    }
  }

  function setUp(pager) {
    if (pager.dataset.pagerStarted) return;
    pager.dataset.pagerStarted = "1";
    var items = [].slice.call(pager.querySelectorAll("[data-pager-item]"));
    if (!items.length) return;
    var key = keyOf(pager);
    var size = fitting(pager, items);
    var pages = Math.ceil(items.length / size);
    if (pages <= 1) return;
    var page = Math.min(pageOf[key] || 0, pages - 1);
    pageOf[key] = page;
    show(pager, items, size, page);
    var seconds = parseFloat(pager.dataset.pagerSeconds) || DEFAULT_SECONDS;
    var timer = window.setInterval(function () {
      if (!pager.isConnected) {  // replaced by a fresh region: that one pages on
        window.clearInterval(timer);
        return;
      }
      page = (page + 1) % pages;
      pageOf[key] = page;
      show(pager, items, size, page);
    }, seconds * 1000);
  }

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
