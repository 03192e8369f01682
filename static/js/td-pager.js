/* A long list on a projector pages through by itself.
 *
 * A <table data-pager> shows as many body rows as fit on the screen (or
 * data-pager-rows of them) and moves on to the next rows every
 * data-pager-seconds (default 8), back to the top after the last page. An
 * element with data-pager-status next to it says which rows are shown. Without
 * JavaScript the table is a plain long list. When a poll replaces the table
 * (static/js/poll.js), the new one carries on from the page the old one showed.
 * Rows are hidden with the `hidden` attribute: no inline styles (the
 * Content-Security-Policy allows none).
 */
(function () {
  "use strict";
  var DEFAULT_SECONDS = 8;
  var MIN_ROWS = 3;
  var pageOf = {};  // the page each pager (by its region's id) showed last

  function keyOf(table) {
    var holder = table.closest("[id]");
    return holder ? holder.id : "pager";
  }

  function rowsPerPage(table, rows) {
    var fixed = parseInt(table.dataset.pagerRows, 10);
    if (fixed > 0) return fixed;
    rows.forEach(function (row) { row.hidden = false; });
    var top = table.getBoundingClientRect().top + window.scrollY;
    var head = table.tHead ? table.tHead.offsetHeight : 0;
    var rowHeight = rows[0].offsetHeight || 1;
    var room = window.innerHeight - top - head - rowHeight * 1.5;  // room for the status line
    return Math.max(MIN_ROWS, Math.floor(room / rowHeight));
  }

  function statusOf(table) {
    var sibling = table.nextElementSibling;
    return sibling && sibling.hasAttribute("data-pager-status") ? sibling : null;
  }

  function show(table, rows, size, page) {
    var start = page * size;
    rows.forEach(function (row, index) { row.hidden = index < start || index >= start + size; });
    var status = statusOf(table);
    if (status) {
      var last = Math.min(start + size, rows.length);
      status.textContent = (start + 1) + "–" + last + " / " + rows.length;
    }
  }

  function setUp(table) {
    if (table.dataset.pagerStarted) return;
    table.dataset.pagerStarted = "1";
    var rows = [].slice.call(table.tBodies[0] ? table.tBodies[0].rows : []);
    if (!rows.length) return;
    var key = keyOf(table);
    var size = rowsPerPage(table, rows);
    var pages = Math.ceil(rows.length / size);
    if (pages <= 1) {
      rows.forEach(function (row) { row.hidden = false; });
      return;
    }
    var page = Math.min(pageOf[key] || 0, pages - 1);
    show(table, rows, size, page);
    var seconds = parseFloat(table.dataset.pagerSeconds) || DEFAULT_SECONDS;
    var timer = window.setInterval(function () {
      if (!table.isConnected) {  // replaced by a fresh fragment: it pages on by itself
        window.clearInterval(timer);
        return;
      }
      page = (page + 1) % pages;
      pageOf[key] = page;
      show(table, rows, size, page);
    }, seconds * 1000);
    pageOf[key] = page;
  }

  function start(root) {
    var tables = root.querySelectorAll ? root.querySelectorAll("table[data-pager]") : [];
    [].forEach.call(tables, setUp);
    if (root.matches && root.matches("table[data-pager]")) setUp(root);
  }

  function boot() {
    if (window.htmx) window.htmx.onLoad(start);
    else start(document);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
