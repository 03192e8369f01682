/* The revisor's card: steppers, the live "adds up to 0" check, drafts kept on the
 * device, and a banner when the connection is down. The server checks everything
 * again; this only makes entry faster and safer. */
(function () {
  "use strict";

  function pointsInputs(form) {
    return [].slice.call(form.querySelectorAll("input[name^=points_]"));
  }

  function updateSum(form) {
    var output = form.querySelector("#points-sum");
    if (!output) return;
    var inputs = pointsInputs(form);
    var filled = inputs.filter(function (i) { return i.value.trim() !== ""; });
    if (!filled.length) { output.textContent = ""; return; }
    var total = filled.reduce(function (sum, i) { return sum + (parseInt(i.value, 10) || 0); }, 0);
    var ok = total === 0 && filled.length === inputs.length;
    output.textContent = ok ? output.dataset.ok
      : output.dataset.bad.replace("%(total)s", (total > 0 ? "+" : "") + total);
    output.className = ok ? "ok" : "bad";
  }

  // Drafts: what was typed for this table's hand survives a reload or a lost connection.
  function draftKey(form) {
    var hand = form.querySelector("input[name=hand_number]");
    return "draft:" + form.dataset.draftKey + ":hand-" + (hand ? hand.value : "");
  }

  function saveDraft(form) {
    var data = {};
    [].forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken") return;
      data[el.name] = el.type === "checkbox" ? el.checked : el.value;
    });
    try { window.localStorage.setItem(draftKey(form), JSON.stringify(data)); } catch (e) { /* private mode */ }
  }

  function restoreDraft(form) {
    var saved;
    try { saved = JSON.parse(window.localStorage.getItem(draftKey(form)) || "null"); } catch (e) { saved = null; }
    if (!saved) return;
    [].forEach.call(form.elements, function (el) {
      if (!el.name || !(el.name in saved) || el.name === "csrfmiddlewaretoken") return;
      // The same submission key: a retry of a sent entry records it once.
      if (el.type === "checkbox") el.checked = !!saved[el.name];
      else if (el.name === "idempotency_key" || el.value === "") el.value = saved[el.name];
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

  function setUp(root) {
    [].forEach.call(root.querySelectorAll("form[data-draft-key]"), function (form) {
      if (form.dataset.ready) return;
      form.dataset.ready = "1";
      forgetOtherDrafts(form);  // a recorded hand's draft is of no use any more
      restoreDraft(form);
      updateSum(form);
      form.addEventListener("input", function () { updateSum(form); saveDraft(form); });
      form.addEventListener("change", function () { saveDraft(form); });
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step], button[data-sign-for]");
    if (!button) return;
    var input = document.getElementById(button.dataset.for || button.dataset.signFor);
    if (!input) return;
    var value = parseInt(input.value, 10) || 0;
    input.value = button.dataset.signFor ? String(-value) : String(value + parseInt(button.dataset.step, 10));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

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
  // htmx swaps in error pages (400) too: the form comes back with its messages in place.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 400 || status === 409 || status === 429) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  function boot() {
    showBanner(navigator.onLine === false);
    if (window.htmx) window.htmx.onLoad(setUp); else setUp(document);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
