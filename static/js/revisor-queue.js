/* The revisor's card offline: hands recorded with no connection are queued on this
 * device (localStorage, per table), in order, each with its hand form's own key, and
 * the card goes on to the next hand, whose dealer, Fantasyland and required hands are
 * worked out here the way the server does (tournament/rules/table_fold.py). When the
 * network is back they are sent one at a time, in order, with no tap
 * (POST /r/card/queued/, views/revisor/queued.py): each lands once, by its key. One the
 * server refuses stays here with the reason (and is held for the TD on the server);
 * those queued after it are held too, as they were worked out on it. docs/offline.md.
 */
(function () {
  "use strict";

  var box = null;        // #card-queue: its data-* carry the URL, the token and the words
  var sending = false;

  function storageKey() { return "queue:table-" + box.dataset.table; }

  function load() {
    var saved = null;
    try { saved = JSON.parse(window.localStorage.getItem(storageKey()) || "null"); } catch (e) { saved = null; }
    if (!saved || !Array.isArray(saved.items)) saved = { items: [], refused: [] };
    if (!Array.isArray(saved.refused)) saved.refused = [];
    return saved;
  }

  function store(queue) {
    try { window.localStorage.setItem(storageKey(), JSON.stringify(queue)); } catch (e) { /* private mode */ }
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    // Plain HTTP has no randomUUID; getRandomValues is there everywhere.
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = [].map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return name in values ? values[name] : all; });
  }

  // ---- The table's fold, as rules/table_fold.py ----------------------------------------
  function baseState() {
    var script = document.getElementById("card-device");
    if (!script) return null;
    try { return JSON.parse(script.textContent); } catch (e) { return null; }
  }

  function nextPosition(after, positions) {
    var ordered = positions.slice().sort(function (a, b) { return a - b; });
    for (var i = 0; i < ordered.length; i++) if (ordered[i] > after) return ordered[i];
    return ordered[0];
  }

  function playingPositions(st) {
    return st.seats.filter(function (s) { return s.playing; }).map(function (s) { return s.position; });
  }

  function dealerOf(st) {
    var positions = playingPositions(st);
    if (!positions.length) return null;
    var someoneInFl = st.seats.some(function (s) { return s.playing && s.in_fl; });
    if (st.last_dealer === null || st.last_dealer === undefined) {
      return positions.indexOf(st.first_dealer) !== -1 ? st.first_dealer : nextPosition(st.first_dealer, positions);
    }
    if (st.button_stays && someoneInFl && positions.indexOf(st.last_dealer) !== -1) return st.last_dealer;
    return nextPosition(st.last_dealer, positions);
  }

  function conclude(st) {
    st.required = st.min_hands + st.fantasyland_hands;
    st.dealer = dealerOf(st);
    var active = st.seats.filter(function (s) { return s.playing; });
    st.tied = [];
    st.over = active.length <= 1;
    if (!st.over && st.hands_played >= st.required && !st.unknown) {
      var best = Math.max.apply(null, active.map(function (s) { return s.total; }));
      var leaders = active.filter(function (s) { return s.total === best; });
      if (leaders.length === 1) st.over = true; else st.tied = leaders;
    }
    return st;
  }

  // One more hand, dealt by the state's dealer: points, who goes to Fantasyland.
  function play(st, item) {
    if (item.entry.mode === "cards") {
      // Scored when sent: its points and who goes to Fantasyland are not known here.
      st.last_dealer = st.dealer;
      st.hands_played += 1;
      st.unknown = true;
      st.seats.forEach(function (seat) { seat.in_fl = false; seat.streak = 0; });
      return conclude(st);
    }
    var going = item.entry.fantasyland || [];
    st.last_dealer = st.dealer;
    st.hands_played += 1;
    if (going.length) st.fantasyland_hands += 1;
    st.seats.forEach(function (seat) {
      var key = String(seat.position);
      if (seat.playing && item.entry.points && key in item.entry.points) seat.total += item.entry.points[key];
      var goes = going.indexOf(seat.position) !== -1;
      seat.streak = goes ? seat.streak + 1 : 0;
      seat.in_fl = goes;
    });
    return conclude(st);
  }

  // The state before the next hand: the page's, and every queued hand after it.
  function currentState(queue) {
    var st = baseState();
    if (!st) return null;
    st.unknown = false;
    conclude(st);
    queue.items.forEach(function (item) { if (item.hand > st.hands_played) play(st, item); });
    return st;
  }

  function expected(st) {
    var totals = {};
    st.seats.forEach(function (s) { totals[String(s.position)] = s.total; });
    if (st.unknown) {
      // After a hand by cards: only who plays, and the dealer where Fantasyland moves no button.
      return { playing: playingPositions(st), fantasyland: null, dealer: st.button_stays ? null : st.dealer, totals: null };
    }
    return {
      playing: playingPositions(st),
      fantasyland: st.seats.filter(function (s) { return s.playing && s.in_fl; }).map(function (s) { return s.position; }),
      dealer: st.dealer,
      totals: totals
    };
  }

  // ---- Queueing a hand from the points form --------------------------------------------
  function readForm(form, st) {
    var points = {}, fantasyland = [], problem = null, sum = 0;
    st.seats.forEach(function (seat) {
      if (!seat.playing) return;
      var input = form.querySelector("[name=points_" + seat.position + "]");
      var text = input ? String(input.value).trim().replace("\u2212", "-") : "";
      if (!/^[+-]?\d+$/.test(text)) { problem = problem || box.dataset.incomplete; return; }
      var value = parseInt(text, 10);
      points[String(seat.position)] = value;
      sum += value;
      var tick = form.querySelector("[name=fantasyland_" + seat.position + "]");
      if (tick && tick.checked) {
        var allowed = st.repeat === "unlimited" || (st.repeat === "once" && seat.streak === 1);
        if (seat.in_fl && !allowed) problem = problem || fill(box.dataset.repeat, { name: seat.name });
        fantasyland.push(seat.position);
      }
    });
    if (!problem && sum !== 0) problem = box.dataset.incomplete;
    return { problem: problem, entry: { mode: "points", points: points, fantasyland: fantasyland } };
  }

  function readCards(form, st) {
    var fields = {}, problem = null;
    st.seats.forEach(function (seat) {
      if (!seat.playing) return;
      ["front", "middle", "back"].forEach(function (row) {
        var name = row + "_" + seat.position;
        var input = form.querySelector("[name=" + name + "]");
        var text = input ? input.value.trim() : "";
        if (!text) problem = problem || fill(box.dataset.rowsMissing, { name: seat.name });
        fields[name] = text;
      });
    });
    return { problem: problem, entry: { mode: "cards", fields: fields } };
  }

  function queueHand(form) {
    var queue = load();
    var st = currentState(queue);
    var hand = parseInt((form.querySelector("[name=hand_number]") || {}).value, 10);
    if (!st || st.over || hand !== st.hands_played + 1) { say(box.dataset.cannot); return false; }
    var read = form.id === "offline-cards" ? readCards(form, st) : readForm(form, st);
    if (read.problem) { say(read.problem); return false; }
    var key = (form.querySelector("[name=idempotency_key]") || {}).value || newKey();
    var names = {};
    st.seats.forEach(function (s) { names[String(s.position)] = s.name; });
    queue.items.push({ hand: hand, key: key, entry: read.entry, expect: expected(st), names: names });
    store(queue);
    try { window.localStorage.removeItem("draft:" + form.dataset.draftKey + ":hand-" + hand); } catch (e) { /* private mode */ }
    nextHand(queue);
    say(fill(box.dataset.queuedOne, { hand: hand }));
    return true;
  }

  // The forms for the next hand, on the device: its number, a new key, nothing typed.
  function nextHand(queue) {
    var st = currentState(queue);
    var number = st.hands_played + 1;
    var main = document.getElementById("revisor-main");
    if (main) main.dataset.hand = st.over ? "over" : String(number);
    ["points-form", "offline-cards"].forEach(function (id) {
      var form = document.getElementById(id);
      if (form) resetForm(form, number);
    });
    show(queue);
  }

  function resetForm(form, number) {
    form.querySelector("[name=hand_number]").value = String(number);
    form.querySelector("[name=idempotency_key]").value = newKey();
    [].forEach.call(form.querySelectorAll("#offline-cards input[type=text]"), function (input) { input.value = ""; });
    [].forEach.call(form.querySelectorAll("input[name^=points_]"), function (input) {
      input.value = "";
      delete input.dataset.typed;
      delete input.dataset.auto;
      input.classList.remove("auto");
    });
    [].forEach.call(form.querySelectorAll("input[name^=fantasyland_]"), function (tick) { tick.checked = false; });
    var sum = form.querySelector("#points-sum");
    if (sum) { sum.textContent = ""; sum.className = ""; }
    [].forEach.call(form.querySelectorAll(".error-summary, .error"), function (el) { el.remove(); });
  }

  // ---- What the card shows ------------------------------------------------------------
  function say(text) {
    var line = document.getElementById("card-queue-said");
    if (line) line.textContent = text;
  }

  function describe(item) {
    var parts = Object.keys(item.entry.points || {}).map(function (pos) {
      var value = item.entry.points[pos];
      var fl = (item.entry.fantasyland || []).indexOf(parseInt(pos, 10)) !== -1 ? " FL" : "";
      return (item.names[pos] || pos) + " " + (value > 0 ? "+" : "") + value + fl;
    });
    if (item.entry.mode === "cards") parts = [box.dataset.byCards];
    return parts.join(", ");
  }

  function listItem(text, cls) {
    var li = document.createElement("li");
    li.className = cls;
    li.textContent = text;
    return li;
  }

  function showState(st, queued) {
    // With no connection, or hands waiting, a hand by cards is typed here (checked when sent).
    var offline = navigator.onLine === false || queued;
    var cards = document.getElementById("offline-cards");
    if (cards) cards.hidden = !offline || st.over;
    [].forEach.call(document.querySelectorAll(".cards-link"), function (link) { link.hidden = offline; });
    if (!queued) return;  // the page shows the server's state as it is
    var count = document.querySelector("#card-summary .hand-count");
    if (count) {
      count.textContent = st.over ? box.dataset.overLocal
        : st.unknown ? fill(box.dataset.handUnknown, { hand: st.hands_played + 1 })
        : st.tied.length ? fill(box.dataset.tieBreak, { hand: st.hands_played + 1, required: st.required })
        : fill(box.dataset.handOf, { hand: st.hands_played + 1, required: st.required });
    }
    var dealer = document.querySelector("#card-summary .dealer");
    var dealt = st.seats.filter(function (s) { return s.position === st.dealer; })[0];
    if (dealer) dealer.textContent = dealt && !st.over ? fill(box.dataset.deals, { name: dealt.name }) : "";
    var fl = document.getElementById("card-queue-fl");
    var inFl = st.seats.filter(function (s) { return s.playing && s.in_fl; }).map(function (s) { return s.name; });
    var serverFl = document.querySelector("#card-summary .fantasyland");
    if (serverFl) serverFl.hidden = true;
    if (fl) { fl.hidden = !inFl.length; fl.textContent = inFl.length ? fill(box.dataset.inFl, { names: inFl.join(", ") }) : ""; }
    [].forEach.call(document.querySelectorAll("#card-summary .totals tbody tr[data-position]"), function (row) {
      var seat = st.seats.filter(function (s) { return String(s.position) === row.dataset.position; })[0];
      var cell = row.querySelector("td.num");
      if (seat && cell) cell.textContent = st.unknown ? "?" : String(seat.total);
    });
    [].forEach.call(document.querySelectorAll("#points-form .fl-badge"), function (badge) { badge.hidden = true; });
    [].forEach.call(document.querySelectorAll("#points-form [data-position]"), function (row) {
      var seat = st.seats.filter(function (s) { return String(s.position) === row.dataset.position; })[0];
      var mark = row.querySelector(".fl-local");
      if (mark) mark.hidden = !(seat && seat.in_fl);
    });
    var title = document.getElementById("points-title");
    if (title) title.textContent = fill(box.dataset.pointsTitle, { hand: st.hands_played + 1 });
    var button = document.querySelector("#points-form button[type=submit]");
    if (button) button.textContent = fill(box.dataset.recordButton, { hand: st.hands_played + 1 });
    var cardsTitle = document.getElementById("offline-cards-title");
    if (cardsTitle) cardsTitle.textContent = fill(box.dataset.cardsTitle, { hand: st.hands_played + 1 });
    var form = document.getElementById("points-form");
    if (form) form.hidden = st.over;
    // The fixes are the server's: not while hands wait to be sent.
    [].forEach.call(document.querySelectorAll("#last-hands a.button"), function (link) { link.hidden = true; });
  }

  function show(queue) {
    var count = queue.items.length;
    var head = document.getElementById("card-queue-count");
    head.textContent = count ? fill(count === 1 ? box.dataset.waitingOne : box.dataset.waitingMany, { count: count }) : "";
    var list = document.getElementById("card-queue-list");
    list.textContent = "";
    queue.items.forEach(function (item) {
      list.appendChild(listItem(fill(box.dataset.notYet, { hand: item.hand }) + " " + describe(item), "queued"));
    });
    var refused = document.getElementById("card-queue-refused");
    refused.textContent = "";
    queue.refused.forEach(function (item) {
      refused.appendChild(listItem(fill(box.dataset.refusedLine, { hand: item.hand, reason: item.reason }) + " " + describe(item), "refused"));
    });
    document.getElementById("card-queue-refused-title").hidden = !queue.refused.length;
    box.hidden = !count && !queue.refused.length;
    var st = currentState(queue);
    if (st) showState(st, count > 0);
  }

  window.addEventListener("offline", function () { if (box) show(load()); });
  window.addEventListener("online", function () { if (box) show(load()); });

  // ---- Sending -----------------------------------------------------------------------
  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function refreshCard() {
    if (!window.htmx) { window.location.reload(); return; }
    window.htmx.ajax("GET", box.dataset.cardUrl, { target: "#revisor-main", swap: "outerHTML" });
  }

  function sendNext() {
    if (sending || !box) return;
    var queue = load();
    if (!queue.items.length) return;
    if (navigator.onLine === false) return;
    sending = true;
    var item = queue.items[0];
    var body = {
      token: box.dataset.token, hand: item.hand, key: item.key, entry: item.entry,
      expect: item.expect, after_refused: queue.blockedBy || null
    };
    fetch(box.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), "X-Revisor-Table": box.dataset.table },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (answer) { return { ok: response.status < 500, answer: answer }; },
        function () { return { ok: false }; });
    }).then(function (result) {
      sending = false;
      if (!result.ok || !result.answer || !result.answer.status) { later(); return; }
      var answer = result.answer, now = load();
      var first = now.items[0];
      if (!first || first.key !== item.key) { later(); return; }
      now.items.shift();
      if (answer.status === "refused") {
        first.reason = answer.reason;
        first.kept = !!answer.kept;
        now.refused.push(first);
        if (!now.blockedBy) now.blockedBy = first.hand;
      }
      if (!now.items.length) delete now.blockedBy;
      store(now);
      show(now);
      if (now.items.length) sendNext();
      else { say(box.dataset.allSent); refreshCard(); }
    }, function () { sending = false; later(); });
  }

  var timer = null;
  function later() {
    if (timer) return;
    timer = window.setTimeout(function () { timer = null; sendNext(); }, 4000);
  }

  // ---- Hooks -------------------------------------------------------------------------
  function offlineOrQueued() {
    return navigator.onLine === false || load().items.length > 0;
  }

  // Before htmx sees the submit: offline, or with hands still waiting (they go first, in
  // order), the hand is queued here instead of posted.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!box || !(form.id === "offline-cards" || (form.id === "points-form" && offlineOrQueued()))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    queueHand(form);
    sendNext();
  }, true);

  // Posted, but the network failed on the way: the same hand, with its key, is queued
  // (if the server did record it, its key answers "already recorded").
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt;
    if (!box || !form || form.id !== "points-form") return;
    queueHand(form);
  });

  // The form shows the device's next hand while hands wait (not the server's): set it
  // again when a swap (a poll, a fresh card) brought the server's, nothing typed lost.
  function keepNextHand() {
    var queue = load();
    var form = document.getElementById("points-form") || document.getElementById("offline-cards");
    var st = currentState(queue);
    var field = form && form.querySelector("[name=hand_number]");
    if (queue.items.length && st && field && field.value !== String(st.hands_played + 1)) nextHand(queue);
    else show(queue);
  }

  document.addEventListener("htmx:afterSwap", function () { if (box) keepNextHand(); });

  window.addEventListener("online", sendNext);
  document.addEventListener("htmx:afterRequest", function (event) { if (event.detail.successful) sendNext(); });

  function boot() {
    box = document.getElementById("card-queue");
    if (!box) return;
    // Over HTTPS the card also opens offline: its page is kept by the service worker.
    if (box.dataset.sw && window.isSecureContext && navigator.serviceWorker) {
      navigator.serviceWorker.register(box.dataset.sw, { scope: box.dataset.sw.replace(/sw\.js$/, "") })
        .catch(function () { /* the open card still works offline */ });
    }
    keepNextHand();
    window.setInterval(sendNext, 5000);
    sendNext();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
