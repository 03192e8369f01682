/* "Time a player" on the revisor's card (rulebook §5: the dealer counts 10 seconds).
 *
 * "Start the 10-second count" shows the count in large digits over the whole screen, for
 * the table to see. At zero the device vibrates and beeps where it can and sends the
 * timeout call (the form's own post, with its one-time key: sent twice, it calls once).
 * "Acted in time" stops the count and offers to call the TD for a warning all the same.
 * The count runs on the clock, not on the ticks, so a busy phone cannot stretch it.
 * Without JavaScript the form calls the TD for a timeout directly.
 */
(function () {
  "use strict";

  var SECONDS = 10;
  var running = null;  // {end, interval, audio, section}

  function part(section, name) {
    return section.querySelector("[data-timer-" + name + "]");
  }

  function chosen(form) {
    var select = form.querySelector("select[name=player]");
    var option = select && select.options[select.selectedIndex];
    return option && option.value ? { id: option.value, name: option.text } : null;
  }

  function say(element, name) {
    element.textContent = element.dataset.label.replace("%(name)s", name);
  }

  // A short beep from WebAudio (no sound file); the context is made on the tap that
  // starts the count, as phones allow sound only after a tap.
  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    try { return Context ? new Context() : null; } catch (e) { return null; }
  }

  function beep(audio) {
    if (!audio) return;
    try {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.3;
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.7);
    } catch (e) { /* no sound on this device */ }
  }

  function stop() {
    if (!running) return null;
    window.clearInterval(running.interval);
    var was = running;
    running = null;
    return was;
  }

  function tick() {
    if (!running) return;
    var section = running.section;
    var left = Math.max(0, Math.ceil((running.end - Date.now()) / 1000));
    part(section, "digits").textContent = String(left);
    if (left > 0) return;
    var was = stop();
    part(section, "acted").hidden = true;
    part(section, "zero").hidden = false;
    if (navigator.vibrate) navigator.vibrate([400, 150, 400]);
    beep(was.audio);
    section.querySelector("#timer-form").requestSubmit();
  }

  function start(section) {
    var form = section.querySelector("#timer-form");
    var player = chosen(form);
    if (!player) { form.requestSubmit(); return; }  // the server says "Choose the player."
    stop();
    part(section, "warning").hidden = true;
    say(part(section, "name"), player.name);
    part(section, "digits").textContent = String(SECONDS);
    part(section, "zero").hidden = true;
    part(section, "acted").hidden = false;
    part(section, "count").hidden = false;
    running = {
      end: Date.now() + SECONDS * 1000,
      interval: window.setInterval(tick, 200),
      audio: audioContext(),
      section: section,
    };
    part(section, "acted").focus();
  }

  function actedInTime(section) {
    stop();
    part(section, "count").hidden = true;
    var player = chosen(section.querySelector("#timer-form"));
    var warning = part(section, "warning");
    if (!player) return;
    part(section, "player").value = player.id;
    say(part(section, "acted-text"), player.name);
    warning.hidden = false;
  }

  document.addEventListener("click", function (event) {
    var section = event.target.closest("#timer");
    if (!section) return;
    if (event.target.closest("[data-timer-start]")) start(section);
    else if (event.target.closest("[data-timer-acted]")) actedInTime(section);
    else if (event.target.closest("[data-timer-dismiss]")) part(section, "warning").hidden = true;
  });

  // With JavaScript the count replaces the direct call (the count sends it at zero).
  function setUp() {
    var section = document.getElementById("timer");
    if (!section || section.dataset.ready) return;
    section.dataset.ready = "1";
    part(section, "start").hidden = false;
    part(section, "plain").hidden = true;
  }

  function boot() {
    if (window.htmx) window.htmx.onLoad(setUp); else setUp();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
