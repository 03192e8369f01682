/* The revisor's card: plus/minus keys, the last player's points filled in from the
 * others, the live "adds up to 0" check, drafts kept on the device, the "Hand N
 * recorded" message brought into view, and a banner when the connection is down. The
 * server checks everything again; this only makes entry faster and safer.
 *
 * Negative points: phone keypads for numbers (iPhone's above all) have no minus key,
 * and which one a phone shows differs by maker. So the points inputs become text
 * inputs with the digits keypad, and each has a "+" and a "−" key beside it: tapping
 * "−" sets the sign and puts the cursor in the field, where the digits follow. That
 * tap replaces the tap into the field, so a negative number costs no extra tap on
 * any keyboard. Without JavaScript the inputs stay number inputs (whose keyboards
 * offer a minus sign) and the keys stay hidden.
 */
(function () {
  "use strict";

  function pointsInputs(form) {
    return [].slice.call(form.querySelectorAll("input[name^=points_]"));
  }

  // "-5", "+5", "−5" (a typographic minus, as some phones type it) or "5": the number, or NaN.
  function parsePoints(text) {
    var clean = String(text).trim().replace("\u2212", "-");
    return /^[+-]?\d+$/.test(clean) ? parseInt(clean, 10) : NaN;
  }

  function seatName(input) {
    var seat = input.closest("[data-name]");
    return seat ? seat.dataset.name : "";
  }

  function updateSum(form) {
    var output = form.querySelector("#points-sum");
    if (!output) return;
    var inputs = pointsInputs(form);
    var filled = inputs.filter(function (i) { return i.value.trim() !== ""; });
    if (!filled.length) { output.textContent = ""; output.className = ""; return; }
    // Letters are no number: counted as 0, "abc" beside -3 and 3 read "add up to 0".
    var wrong = filled.filter(function (i) { return isNaN(parsePoints(i.value)); })[0];
    if (wrong) {
      output.textContent = output.dataset.nan.replace("%(name)s", seatName(wrong));
      output.className = "bad";
      return;
    }
    var total = filled.reduce(function (sum, i) { return sum + (parsePoints(i.value) || 0); }, 0);
    var ok = total === 0 && filled.length === inputs.length;
    var text = ok ? output.dataset.ok
      : output.dataset.bad.replace("%(total)s", (total > 0 ? "+" : "") + total);
    // Filled in from the others, the points add up to 0 by themselves: say whose were filled.
    var auto = inputs.filter(function (i) { return i.dataset.auto; })[0];
    if (ok && auto) text = output.dataset.filled.replace("%(name)s", seatName(auto));
    output.textContent = text;
    output.className = ok ? "ok" : "bad";
  }

  // The last player's points from the others' (they add up to zero): filled in once all
  // the others are typed, and changed with them, until the revisor types there himself.
  function fillLast(form) {
    var inputs = pointsInputs(form);
    var open = inputs.filter(function (i) { return !i.dataset.typed; });
    var typed = inputs.filter(function (i) { return i.dataset.typed; });
    var values = typed.map(function (i) { return parsePoints(i.value); });
    var ready = open.length === 1 && typed.length >= 1 && values.every(function (v) { return !isNaN(v); });
    inputs.forEach(function (input) {
      if (ready && input === open[0]) {
        var rest = -values.reduce(function (a, b) { return a + b; }, 0);
        input.value = String(rest === 0 ? 0 : rest);
        input.dataset.auto = "1";
        input.classList.add("auto");
      } else if (input.dataset.auto) {
        // Filled in before, no longer the only one left: the revisor decides again.
        if (!ready) input.value = "";
        delete input.dataset.auto;
        input.classList.remove("auto");
      }
    });
  }

  function typedBy(input) {
    if (input.value.trim() === "") delete input.dataset.typed;
    else input.dataset.typed = "1";
    delete input.dataset.auto;
    input.classList.remove("auto");
  }

  // Drafts: what was typed for this table's hand survives a reload or a lost connection.
  function draftKey(form) {
    var hand = form.querySelector("input[name=hand_number]");
    return "draft:" + form.dataset.draftKey + ":hand-" + (hand ? hand.value : "");
  }

  function saveDraft(form) {
    var data = { __typed: [] };
    [].forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.type === "submit") return;
      data[el.name] = el.type === "checkbox" ? el.checked : el.value;
      if (el.dataset.typed) data.__typed.push(el.name);
    });
    try { window.localStorage.setItem(draftKey(form), JSON.stringify(data)); } catch (e) { /* private mode */ }
  }

  function restoreDraft(form) {
    var saved;
    try { saved = JSON.parse(window.localStorage.getItem(draftKey(form)) || "null"); } catch (e) { saved = null; }
    if (!saved) return;
    var typed = saved.__typed || [];
    [].forEach.call(form.elements, function (el) {
      if (!el.name || !(el.name in saved) || el.name === "csrfmiddlewaretoken") return;
      // The same submission key: a retry of a sent entry records it once.
      if (el.type === "checkbox") el.checked = !!saved[el.name];
      else if (el.name === "idempotency_key" || el.value === "") el.value = saved[el.name];
      if (typed.indexOf(el.name) !== -1) el.dataset.typed = "1";
    });
  }

  function forgetOtherDrafts(form) {
    var keep = draftKey(form);
    var prefix = "draft:" + form.dataset.draftKey + ":";
    try {
      for (var i = window.localStorage.length - 1; i >= 0; i--) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf(prefix) === 0 && key !== keep) window.localStorage.removeItem(key);
      }
    } catch (e) { /* private mode */ }
  }

  // The digits keypad, with the sign on the keys beside the field (see the top).
  function useSignKeys(form) {
    pointsInputs(form).forEach(function (input) {
      input.type = "text";
      input.inputMode = "numeric";
      input.autocomplete = "off";
      // What the server sent back (a refused entry) counts as typed.
      if (input.value.trim() !== "") input.dataset.typed = "1";
    });
    [].forEach.call(form.querySelectorAll("[data-signs]"), function (keys) { keys.hidden = false; });
  }

  function setUp(root) {
    [].forEach.call(root.querySelectorAll("form[data-draft-key]"), function (form) {
      if (form.dataset.ready) return;
      form.dataset.ready = "1";
      useSignKeys(form);
      forgetOtherDrafts(form);  // a recorded hand's draft is of no use any more
      restoreDraft(form);
      fillLast(form);
      updateSum(form);
      form.addEventListener("input", function (event) {
        if (event.target.matches("input[name^=points_]")) {
          typedBy(event.target);
          fillLast(form);
        }
        updateSum(form);
        saveDraft(form);
      });
      form.addEventListener("change", function () { saveDraft(form); });
    });
    showMessages(root);
  }

  document.addEventListener("click", function (event) {
    var key = event.target.closest("button[data-sign]");
    if (!key) return;
    var input = document.getElementById(key.dataset.for);
    if (!input) return;
    var digits = input.value.replace(/[^0-9]/g, "");
    input.value = (key.dataset.sign === "-" ? "-" : "") + digits;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // "Hand N recorded ✓" where the revisor is looking: after a swap, scrolled into view.
  function showMessages(root) {
    var list = root.querySelector ? root.querySelector("#card-messages") : null;
    if (!list || list.dataset.shown) return;
    list.dataset.shown = "1";  // once: a later poll must not pull the page back up to it
    var box = list.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      list.scrollIntoView({ block: "start" });
    }
  }

  function showBanner(down) {
    var banner = document.getElementById("connection-banner");
    if (banner) banner.hidden = !down;
  }
  window.addEventListener("offline", function () { showBanner(true); });
  window.addEventListener("online", function () { showBanner(false); });
  document.addEventListener("htmx:sendError", function () { showBanner(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) showBanner(false);
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    // htmx swaps in error pages (400) too: the form comes back with its messages in place.
    if (xhr.status === 400 || xhr.status === 409 || xhr.status === 429) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
    // A poll's whole card replaces the page's only while the page still shows the hand
    // the poll asked about (an entry of this device may have been swapped in meanwhile).
    var replaces = xhr.getResponseHeader("X-Replaces-Hand");
    var main = document.getElementById("revisor-main");
    if (replaces !== null && main && main.dataset.hand !== replaces) {
      event.detail.shouldSwap = false;
    }
  });

  // Set up swapped-in forms in the same task as the swap, before anything can be typed
  // into them (htmx's load event comes a moment later, after the settle).
  document.addEventListener("htmx:afterSwap", function () { setUp(document); });

  // Every request says which table this page shows: a tab left on table 1 after table 2's
  // link was opened in another tab is refused, not recorded at table 2
  // (views/revisor/binding.py). htmx's requests in a header, a plain form's in a field.
  function shownTable() { return document.body.dataset.revisorTable; }
  document.addEventListener("htmx:configRequest", function (event) {
    if (shownTable()) event.detail.headers["X-Revisor-Table"] = shownTable();
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!shownTable() || (form.method || "").toLowerCase() !== "post") return;
    var field = form.querySelector("input[name=revisor_table]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "revisor_table";
      form.appendChild(field);
    }
    field.value = shownTable();
  }, true);

  // htmx keeps a copy of the page for Back (the cards' check pushes a history entry:
  // views/revisor/cards.py). The copy is the page's HTML: without the set-up marks, so
  // that restored its forms (and the card picker) are set up again, and with what was
  // typed as the fields' values, which HTML would otherwise leave out.
  document.addEventListener("htmx:beforeHistorySave", function (event) {
    [].forEach.call(event.detail.historyElt.querySelectorAll("form"), function (form) {
      delete form.dataset.ready;
      delete form.dataset.pickerReady;
      [].forEach.call(form.querySelectorAll("input[type=text]"), function (input) {
        input.setAttribute("value", input.value);
      });
    });
  });

  function boot() {
    showBanner(navigator.onLine === false);
    if (window.htmx) window.htmx.onLoad(setUp); else setUp(document);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
