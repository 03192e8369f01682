/* "My table": a player follows himself on his phone (issue 19, section 6), from his page
 * or from his name on "Where do I sit?" (his page opened with #follow).
 *
 * Following keeps {player, state} in localStorage per tournament (on this device only; no
 * account). The public nav's "My table" link ([data-my-table-link]) then leads to his
 * page. On his page the polled region carries data-my-state ("seated-2-3-1", "out", ...);
 * when a poll (static/js/poll.js) brings another state than the one last seen here, a
 * banner ([data-my-banner]) shows the region's news ([data-my-news]), the phone vibrates
 * and beeps where the browser allows it. Browsers play sound only after a tap on the
 * page, so the AudioContext is made at the first tap. A hidden page does not poll: on
 * return it polls at once and the banner shows then; a locked phone runs nothing (no push
 * without a service worker and a push server). No inline script (CSP).
 */
(function () {
  "use strict";
  var KEY = "ofc-my-table:";
  var audio = null;

  function read(tournament) {
    try { return JSON.parse(window.localStorage.getItem(KEY + tournament)); } catch (e) { return null; }
  }

  function write(tournament, value) {
    try {
      if (value) window.localStorage.setItem(KEY + tournament, JSON.stringify(value));
      else window.localStorage.removeItem(KEY + tournament);
    } catch (e) { /* storage refused (private mode): nothing is kept */ }
  }

  // A tap allows sound: make (or wake) the AudioContext inside it.
  function arm() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended" && audio.resume) audio.resume();
  }

  function beep() {
    if (!audio) return;  // never tapped: the browser would refuse the sound
    var tone = audio.createOscillator();
    var volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.value = 0.3;
    tone.connect(volume);
    volume.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.5);
  }

  function announce(text) {
    var banner = document.querySelector("[data-my-banner]");
    if (!banner || !text) return;
    banner.querySelector("[data-my-banner-text]").textContent = text;
    banner.hidden = false;
    if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
    beep();
  }

  function syncPlayerPage() {
    var region = document.querySelector("[data-my-state]");
    if (!region) return;
    var followed = read(region.dataset.tournament);
    var mine = !!followed && String(followed.player) === region.dataset.player;
    [].forEach.call(document.querySelectorAll("[data-follow-start]"), function (el) { el.hidden = mine; });
    [].forEach.call(document.querySelectorAll("[data-follow-stop], [data-follow-note]"), function (el) {
      el.hidden = !mine;
    });
    var state = region.dataset.myState;
    if (!mine || followed.state === state) return;
    var news = region.querySelector("[data-my-news]");
    announce(news ? news.textContent.trim() : "");
    write(region.dataset.tournament, { player: followed.player, state: state });
  }

  function syncLinks() {
    [].forEach.call(document.querySelectorAll("[data-my-table-link]"), function (link) {
      var followed = read(link.dataset.tournament);
      if (followed) link.href = link.dataset.playerPrefix + encodeURIComponent(followed.player) + "/";
      link.hidden = !followed;
    });
  }

  function sync() {
    syncPlayerPage();
    syncLinks();
  }

  // "Follow me on this phone" on "Where do I sit?" leads to the player's page with #follow:
  // the page follows him as its own button would, once, and drops the mark from the address.
  function followFromFind() {
    var region = document.querySelector("[data-my-state]");
    if (!region || window.location.hash !== "#follow") return;
    write(region.dataset.tournament, { player: region.dataset.player, state: region.dataset.myState });
    if (window.history.replaceState) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
  }

  document.addEventListener("click", function (event) {
    arm();
    var region = document.querySelector("[data-my-state]");
    var target = event.target.closest ? event.target : null;
    if (!target) return;
    if (region && target.closest("[data-follow-start]")) {
      write(region.dataset.tournament, { player: region.dataset.player, state: region.dataset.myState });
      sync();
    } else if (region && target.closest("[data-follow-stop]")) {
      write(region.dataset.tournament, null);
      var banner = document.querySelector("[data-my-banner]");
      if (banner) banner.hidden = true;
      sync();
    } else if (target.closest("[data-my-banner-close]")) {
      target.closest("[data-my-banner]").hidden = true;
    }
  });
  document.addEventListener("keydown", arm);

  function boot() {
    followFromFind();
    if (window.htmx) window.htmx.onLoad(sync);
    else sync();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
