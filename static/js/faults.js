/* A database fault (tournament/faults): the server's 503 answer to an htmx request is an
 * alert, in the reader's language. htmx swaps no error answer by itself, so this puts it
 * where it belongs:
 *
 * - an entry's (a form's): at the top of the form it was sent from (the server says so:
 *   HX-Retarget, HX-Reswap), after taking away the alert of an earlier try; the form keeps
 *   what was typed and its key, and the alert is brought into view on a phone. When the
 *   connection was lost and the entry carries its key, the page sends it again by itself,
 *   by the same button, after the seconds X-Database-Resend says, saying so to the server
 *   (X-Resent-After-Fault): it is recorded once, and the answer shows it recorded; no poll
 *   takes the form away meanwhile;
 * - a read's (a poll's, a link's): at the top of its region ("trying again"), which keeps
 *   what it shows and goes on polling, or of the main part; a region's goes when one of its
 *   polls is answered again.
 */
(function () {
  "use strict";
  var MAX_SECONDS = 60;

  function fault(xhr) {
    return xhr.status === 503 && xhr.getResponseHeader("X-Database-Fault");
  }

  function regionOf(elt) {
    return elt && elt.matches && elt.matches("[data-poll-url]") ? elt : null;
  }

  function formOf(elt) {
    return elt && elt.closest ? elt.closest("form") : null;
  }

  function alertIn(html) {
    var parsed = document.createElement("template");
    parsed.innerHTML = html;
    return parsed.content.querySelector(".fault-alert");
  }

  // A read's alert at the top of `place` (a poll's region, or the main part), instead of
  // what was there before it.
  function showAtTop(place, xhr) {
    var alert = alertIn(xhr.responseText);
    if (!alert) return;
    alert.setAttribute("role", "status");  // said once, not again at every poll
    var old = place.querySelector(":scope > .fault-alert");
    if (old && old.textContent === alert.textContent) return;
    if (old) old.remove();
    place.insertBefore(alert, place.firstChild);
  }

  // The button the entry was sent by (its name and value are part of it: "step=confirm").
  function buttonOf(config) {
    var trigger = config.triggeringEvent;
    if (trigger && trigger.submitter) return trigger.submitter;
    if (config.elt.matches("button, input[type=submit]")) return config.elt;
    var form = formOf(config.elt);
    return form && form.querySelector("button[type=submit], button:not([type]), input[type=submit]");
  }

  function resendLater(button, seconds) {
    var form = formOf(button);
    if (!form) return;
    window.clearTimeout(form.faultResend);
    form.faultResend = window.setTimeout(function () {
      delete form.faultResend;
      if (!button.isConnected) return;  // the page moved on meanwhile
      if (button.disabled) { resendLater(button, 1); return; }
      form.dataset.faultResending = "1";
      button.click();
    }, seconds * 1000);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var form = formOf(event.detail.elt);
    if (!form) return;
    if (form.dataset.faultResending) {
      delete form.dataset.faultResending;
      event.detail.headers["X-Resent-After-Fault"] = "lost";
    } else if (form.faultResend) {
      // Sent again by hand before the page did: once is enough.
      window.clearTimeout(form.faultResend);
      delete form.faultResend;
    }
  });

  // A poll's answer (the revisor's whole card, the table having moved on) would take away a
  // form whose entry waits to be sent again: its own answer is the one to show.
  function waitsToBeSent(target) {
    return !!target && !![].filter.call(target.querySelectorAll("form"), function (form) {
      return form.faultResend;
    }).length;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (!fault(xhr)) {
      var config = event.detail.requestConfig;
      if (config && config.verb === "get" && waitsToBeSent(event.detail.target)) {
        event.detail.shouldSwap = false;
      }
      return;
    }
    if (!xhr.getResponseHeader("HX-Retarget")) {  // a read: a poll's, or a link's
      // Not swapped, and still an error: the region's alert stays until a poll succeeds.
      event.detail.shouldSwap = false;
      var region = regionOf(event.detail.elt);
      showAtTop(region || document.querySelector("main") || document.body, xhr);
      return;
    }
    [].forEach.call(document.querySelectorAll(".fault-alert"), function (old) {
      if (!old.closest("[data-poll-url]")) old.remove();  // a region's stays: its own poll's
    });
    event.detail.shouldSwap = true;
    event.detail.isError = false;
    var resendIn = parseInt(xhr.getResponseHeader("X-Database-Resend"), 10);
    if (resendIn >= 0 && event.detail.requestConfig) {
      var button = buttonOf(event.detail.requestConfig);
      if (button) resendLater(button, Math.min(resendIn, MAX_SECONDS));
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var region = regionOf(event.detail.elt);
    if (!region || !event.detail.successful) return;
    var alert = region.querySelector(":scope > .fault-alert");
    if (alert) alert.remove();
  });

  document.addEventListener("htmx:afterSwap", function () {
    var alert = document.querySelector(".fault-alert[role=alert]");
    if (!alert || alert.dataset.shown) return;
    alert.dataset.shown = "1";  // once: a later swap (a poll) must not pull the page back
    var box = alert.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) alert.scrollIntoView({ block: "start" });
  });
})();
