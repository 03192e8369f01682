/* Alerts the TD cannot miss (issue 19 §3): calls, ties, silent tables, on every TD page of a
 * tournament (the dashboard's live region, the alerts bar of the others).
 *
 * A polled region (poll.js, the one polling mechanism) with data-alert-region lists the open
 * alerts as elements with data-alert-key. Here, after every load of such a region:
 * - the page's title starts with their count, "(2) ...", and loses it once none is open;
 * - each alert new since the TD last looked beeps (WebAudio) and shows a browser notification,
 *   only when the TD switched that on (the switch on the dashboard, kept in localStorage;
 *   nothing plays without it); a notification closes once its alert is handled.
 * "Last looked" is kept in this tab (sessionStorage), per tournament: going from the
 * dashboard to a table's page raises nothing again, and a call made in between is raised on
 * the page the TD is on. What a tab shows when it first opens is not new.
 * While the switch is on, the region keeps polling in a hidden tab (data-poll-hidden), so that
 * a TD on another tab still hears of a call.
 * Browsers let a page play sound only after the person tapped or typed on it: with the switch
 * on, the first tap, click or key on any TD page makes (or resumes) the page's audio, so that
 * a table's page or the players' page can beep too, not only the dashboard where the switch
 * was clicked. Before that first gesture an alert still shows its notification and count.
 */
(function () {
  "use strict";
  var STORAGE_KEY = "pofc-td-alerts";
  var COUNT_PREFIX = /^\(\d+\) /;
  var SEEN_KEY = "pofc-td-alerts-seen-";
  var seen = null;  // the keys shown at the last look; null before the first
  var shown = {};  // key -> the Notification shown for it, closed once the alert is handled
  var audio = null;

  function switchedOn() {
    try { return window.localStorage.getItem(STORAGE_KEY) === "on"; } catch (e) { return false; }
  }

  function remember(on) {
    try { window.localStorage.setItem(STORAGE_KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  function region() {
    return document.querySelector("[data-alert-region]");
  }

  function seenBefore(scope) {
    try {
      var kept = window.sessionStorage.getItem(SEEN_KEY + scope);
      return kept === null ? null : JSON.parse(kept);
    } catch (e) { return null; }
  }

  function keepSeen(scope, keys) {
    try { window.sessionStorage.setItem(SEEN_KEY + scope, JSON.stringify(keys)); } catch (e) { /* private mode */ }
  }

  function alerts() {
    return [].map.call(document.querySelectorAll("[data-alert-key]"), function (item) {
      var link = item.querySelector("a");
      return {
        key: item.dataset.alertKey,
        text: item.textContent.replace(/\s+/g, " ").trim(),
        href: link ? link.href : window.location.href
      };
    });
  }

  function showCount(count) {
    var base = document.title.replace(COUNT_PREFIX, "");
    document.title = count ? "(" + count + ") " + base : base;
  }

  function wakeAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended" && audio.resume) audio.resume();
    return audio;
  }

  // The first gesture on the page, with the switch on, wakes the audio (see the top); the
  // listeners go once it runs.
  var GESTURES = ["pointerdown", "keydown", "touchend"];

  function onGesture() {
    if (!switchedOn()) return;
    var woken = wakeAudio();
    if (woken && woken.state === "suspended") return;  // resume() may settle later
    GESTURES.forEach(function (type) { document.removeEventListener(type, onGesture, true); });
  }

  function listenForAGesture() {
    GESTURES.forEach(function (type) { document.addEventListener(type, onGesture, true); });
  }

  function beep() {
    if (!wakeAudio()) return;
    var tone = audio.createOscillator();
    var volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.value = 0.2;
    tone.connect(volume);
    volume.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.3);
  }

  function notify(alert) {
    if (!("Notification" in window) || window.Notification.permission !== "granted") return;
    var note = new window.Notification(alert.text, { tag: alert.key });
    note.onclick = function () {
      window.focus();
      window.location.href = alert.href;
    };
    shown[alert.key] = note;
  }

  function closeHandled(keys) {
    Object.keys(shown).forEach(function (key) {
      if (keys.indexOf(key) >= 0) return;
      if (shown[key].close) shown[key].close();
      delete shown[key];
    });
  }

  function keepPollingWhenHidden() {
    [].forEach.call(document.querySelectorAll("[data-alert-region][data-poll-url]"), function (region) {
      if (switchedOn()) region.setAttribute("data-poll-hidden", "");
      else region.removeAttribute("data-poll-hidden");
    });
  }

  function look() {
    var where = region();
    if (!where) return;  // a page without alerts: nothing to count
    var scope = where.dataset.alertRegion;
    var open = alerts();
    var keys = open.map(function (a) { return a.key; });
    showCount(open.length);
    keepPollingWhenHidden();
    if (seen === null) seen = seenBefore(scope) || keys;
    var fresh = open.filter(function (a) { return seen.indexOf(a.key) < 0; });
    seen = keys;
    keepSeen(scope, keys);
    closeHandled(keys);
    if (!fresh.length || !switchedOn()) return;
    beep();
    fresh.forEach(notify);
  }

  function showBlocked(panel) {
    var blocked = panel.querySelector("[data-alert-blocked]");
    var denied = !("Notification" in window) || window.Notification.permission === "denied";
    if (blocked) blocked.hidden = !(switchedOn() && denied);
  }

  function setUpSwitch() {
    var panel = document.querySelector("[data-alert-switch]");
    if (!panel) return;
    var toggle = panel.querySelector("[data-alert-toggle]");
    toggle.checked = switchedOn();
    panel.hidden = false;
    showBlocked(panel);
    toggle.addEventListener("change", function () {
      remember(toggle.checked);
      keepPollingWhenHidden();
      if (toggle.checked) {
        // Asked on the click itself: browsers allow the question, and the sound, only then.
        wakeAudio();
        if ("Notification" in window && window.Notification.permission === "default") {
          var asked = window.Notification.requestPermission();
          if (asked && asked.then) asked.then(function () { showBlocked(panel); });
        }
      }
      showBlocked(panel);
    });
  }

  function boot() {
    setUpSwitch();
    listenForAGesture();
    if (window.htmx) window.htmx.onLoad(look);
    else look();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
