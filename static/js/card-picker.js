/* The touch card picker of the revisor's "enter the hand by cards" page.
 *
 * Progressive enhancement: without JavaScript the page is a form of text inputs
 * (one per row: "Qs Qh 7d", "Q♠Q♥7♦", "10h" are all read by the server). This
 * script shows, for every row, its card slots and, under the boards, one keypad
 * (13 ranks, 4 suits) that writes into those same text inputs, so typing and
 * tapping can be mixed and the drafts kept by revisor.js cover both.
 *
 * - A cursor moves front → middle → back and on to the next player; tap an empty
 *   slot to move it to that row (a Fantasyland player's 13 cards go in any order).
 * - Cards already used anywhere in this hand are greyed out and cannot be picked.
 * - Tap a placed card to take it out again (or "Undo the last card").
 * - On a tablet (768 px and up, where the page's styles show it instead of the keys) the
 *   whole deck: 52 cards, one tap each places the card at the cursor; a card already
 *   placed is greyed out, and a tap on it takes it back (the cursor goes to its row).
 *
 * COUNTING THE TAPS (one hand, three players, 39 cards):
 *   Plain "rank, then suit" for every card: 39 × 2 = 78 taps, + "Check the hand"
 *   + "Confirm" = 80.
 *   This picker keeps the FIRST key of a card selected after the card is placed:
 *   pick a rank first and the rank stays (the next card of that rank is one tap:
 *   its suit); pick a suit first and the suit stays (a flush is one tap a card:
 *   its rank). The selected key tapped again starts the next card with it (so the
 *   plain "rank, then suit" for a pair, Q ♠ Q ♥, is right too); tapped once more,
 *   or before it has placed a card, it lets go. So a card costs one tap,
 *   plus one whenever the key that stays has to change. A pair costs 3 taps
 *   instead of 4, trips 4 instead of 6, a flush 6 instead of 10.
 *   The hand of tests/tournament/views/test_revisor_cards.py (Anna QQ2 / KK987 /
 *   AAA33, Bo 442 / JJ543 / 9-K straight, Cia 567 / T9234 / 888 76), picked rank
 *   first, row by row: Anna 5 + 9 + 7, Bo 5 + 9 + 10, Cia 6 + 10 + 8 = 69 taps,
 *   + Check + Confirm = 71 taps instead of 80 (tests/browser/
 *   test_revisor_cards_browser.py enters it by taps on a 360 × 740 phone and
 *   counts them). At best (every row a set of one rank, or one suit, chosen
 *   well) a card is one tap: 39 + 2 = 41; at worst (no two cards in a row share
 *   a rank, and the suit changes every card) 2 a card: 80, as without the trick.
 *   The tablet's deck: one tap a card, always: 39 + 2 = 41, and a card picked wrong costs
 *   two more (a tap to take it back, one for the right card); tests/browser/
 *   test_revisor_deck_browser.py enters a hand with one slip on a 768 px tablet: 43.
 */
(function () {
  "use strict";

  var RANKS = "AKQJT98765432";
  var SUITS = "shdc";
  var SYMBOLS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  var SUIT_OF = {
    s: "s", "\u2660": "s", "\u2664": "s",
    h: "h", "\u2665": "h", "\u2661": "h",
    d: "d", "\u2666": "d", "\u2662": "d",
    c: "c", "\u2663": "c", "\u2667": "c"
  };
  var TOKEN = /(?:10|[2-9TJQKA])[SHDC\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667]/gi;

  /* "Q♠Q♥ 7d, 10h" -> ["Qs", "Qh", "7d", "Th"]; what is not a card is left for the server. */
  function parseRow(text) {
    var found = (text || "").replace(/\ufe0f/g, "").match(TOKEN) || [];
    return found.map(function (token) {
      var rank = token.slice(0, -1).toUpperCase();
      if (rank === "10") rank = "T";
      return rank + SUIT_OF[token.slice(-1).toLowerCase()];
    });
  }

  function shown(code) {
    return (code[0] === "T" ? "10" : code[0]) + SYMBOLS[code[1]];
  }

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, name) {
      return name in values ? values[name] : all;
    });
  }

  function Picker(form) {
    this.form = form;
    this.keys = form.querySelector("[data-picker]");
    this.deck = this.keys.querySelector("[data-deck]");
    this.status = this.keys.querySelector("[data-picker-status]");
    this.texts = this.keys.dataset;
    this.rows = [].slice.call(form.querySelectorAll(".board-row[data-row]")).map(function (el) {
      var slots = document.createElement("div");
      slots.className = "slots";
      var input = el.querySelector("input");
      el.insertBefore(slots, input);
      return { el: el, input: input, size: parseInt(el.dataset.size, 10), place: el.dataset.place, slots: slots };
    });
    this.armed = null; // {kind: "rank" | "suit", value: "Q" | "s"}: the key that stays selected
    this.history = []; // [{row: index, code: "Qs"}], for "Undo the last card"
    this.cursor = this.nextOpen(-1);
    this.keys.hidden = false;
    form.classList.add("picker-on");
    var picker = this;
    form.addEventListener("click", function (event) { picker.onClick(event); });
    form.addEventListener("input", function (event) {
      if (event.target.closest(".board-row")) picker.afterTyping();
    });
    // A tablet turned round may cross the width where the deck replaces the keys.
    var wide = window.matchMedia ? window.matchMedia("(min-width: 768px)") : null;
    if (wide && wide.addEventListener) wide.addEventListener("change", function () { picker.render(); });
    this.render();
    // revisor.js may restore a draft into the inputs right after this: look again.
    window.setTimeout(function () { picker.afterTyping(); }, 0);
  }

  Picker.prototype.cards = function (index) {
    return parseRow(this.rows[index].input.value);
  };

  Picker.prototype.isOpen = function (index) {
    return this.cards(index).length < this.rows[index].size;
  };

  /* The first row after `from` (wrapping round) with room for a card; -1 when all are full. */
  Picker.prototype.nextOpen = function (from) {
    var n = this.rows.length;
    for (var step = 1; step <= n; step++) {
      var index = (from + step + n) % n;
      if (from < 0) index = step - 1;
      if (this.isOpen(index)) return index;
    }
    return -1;
  };

  /* Where each card of the hand is: {"Qs": row index}. */
  Picker.prototype.where = function () {
    var found = {};
    for (var i = 0; i < this.rows.length; i++) {
      this.cards(i).forEach(function (code) { if (!(code in found)) found[code] = i; });
    }
    return found;
  };

  /* The deck is shown (a tablet): the page's styles choose it or the keys by the width. */
  Picker.prototype.onDeck = function () {
    return !!this.deck && this.deck.offsetParent !== null;
  };

  /* A card of the deck tapped: placed at the cursor, or, placed already, taken back. */
  Picker.prototype.deckTap = function (code) {
    this.armed = null;
    var row = this.where()[code];
    if (row === undefined) { this.place(code); return; }
    this.remove(row, this.cards(row).indexOf(code));
  };

  Picker.prototype.used = function () {
    var counts = {};
    for (var i = 0; i < this.rows.length; i++) {
      this.cards(i).forEach(function (code) { counts[code] = (counts[code] || 0) + 1; });
    }
    return counts;
  };

  Picker.prototype.write = function (index, cards) {
    var input = this.rows[index].input;
    input.value = cards.join(" ");
    // revisor.js keeps the draft on "input"; this picker re-renders on it too.
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };

  Picker.prototype.place = function (code) {
    if (this.cursor < 0 || this.used()[code]) return;
    if (!this.isOpen(this.cursor)) this.cursor = this.nextOpen(this.cursor);
    if (this.cursor < 0) return;
    var index = this.cursor;
    var cards = this.cards(index);
    cards.push(code);
    this.history.push({ row: index, code: code });
    this.write(index, cards);
    if (!this.isOpen(index)) this.moveTo(this.nextOpen(index));
    this.render();
  };

  Picker.prototype.remove = function (index, position) {
    var cards = this.cards(index);
    cards.splice(position, 1);
    this.write(index, cards);
    this.cursor = index;
    this.render();
  };

  Picker.prototype.undo = function () {
    while (this.history.length) {
      var last = this.history.pop();
      var position = this.cards(last.row).lastIndexOf(last.code);
      if (position >= 0) { this.remove(last.row, position); return; }
    }
  };

  Picker.prototype.moveTo = function (index) {
    this.cursor = index;
    if (index >= 0 && this.rows[index].el.scrollIntoView) {
      this.rows[index].el.scrollIntoView({ block: "nearest" });
    }
  };

  Picker.prototype.tap = function (kind, value) {
    var armed = this.armed;
    if (armed && armed.kind === kind) {
      // Another key of the same kind replaces it. The same key again, once it has placed
      // a card, starts the next card with it: "Q, ♠, Q, ♥" is the pair Q♠ Q♥ (releasing
      // the Q there turned the plain "rank, then suit" habit into Q♠ 7♥). Tapped again
      // before it has placed a card, it lets go.
      var keep = armed.value !== value || armed.placed;
      this.armed = keep ? { kind: kind, value: value, placed: false } : null;
    } else if (armed) {
      var before = this.history.length;
      this.place(kind === "rank" ? value + armed.value : armed.value + value);
      if (this.history.length > before) armed.placed = true;
    } else {
      this.armed = { kind: kind, value: value, placed: false };
    }
    this.render();
  };

  Picker.prototype.afterTyping = function () {
    if (this.cursor < 0 || !this.isOpen(this.cursor)) this.cursor = this.nextOpen(this.cursor);
    this.render();
  };

  Picker.prototype.onClick = function (event) {
    var button = event.target.closest("button");
    if (!button || !this.form.contains(button)) return;
    if (button.dataset.deckCard) this.deckTap(button.dataset.deckCard);
    else if (button.dataset.rank) this.tap("rank", button.dataset.rank);
    else if (button.dataset.suit) this.tap("suit", button.dataset.suit);
    else if (button.hasAttribute("data-picker-undo")) this.undo();
    else if (button.dataset.slotRow) {
      var index = parseInt(button.dataset.slotRow, 10);
      if (button.dataset.card) this.remove(index, parseInt(button.dataset.slotPosition, 10));
      else { this.cursor = index; this.render(); }
    }
  };

  Picker.prototype.render = function () {
    var picker = this;
    var used = this.used();
    var texts = this.texts;
    this.rows.forEach(function (row, index) {
      var cards = picker.cards(index);
      var count = Math.max(row.size, cards.length);
      var buttons = [];
      for (var i = 0; i < count; i++) {
        var b = document.createElement("button");
        b.type = "button";
        b.dataset.slotRow = String(index);
        b.dataset.slotPosition = String(i);
        if (i < cards.length) {
          var code = cards[i];
          b.className = "slot filled" + ("hd".indexOf(code[1]) >= 0 ? " red" : "") +
            (used[code] > 1 ? " duplicate" : "") + (i >= row.size ? " extra" : "");
          b.dataset.card = code;
          b.textContent = shown(code);
          b.setAttribute("aria-label", fill(texts.textRemove, { card: shown(code), place: row.place }));
        } else {
          b.className = "slot empty" + (index === picker.cursor && i === cards.length ? " cursor" : "");
          b.setAttribute("aria-label", fill(texts.textHere, { place: row.place }));
        }
        buttons.push(b);
      }
      row.slots.replaceChildren.apply(row.slots, buttons);
      row.el.classList.toggle("is-cursor", index === picker.cursor);
      row.el.classList.toggle("is-full", cards.length === row.size);
    });
    var armed = this.armed;
    [].forEach.call(this.keys.querySelectorAll("button[data-rank]"), function (b) {
      var rank = b.dataset.rank;
      var left = SUITS.split("").filter(function (s) { return !used[rank + s]; });
      b.disabled = picker.cursor < 0 || !left.length ||
        (armed !== null && armed.kind === "suit" && !!used[rank + armed.value]);
      b.setAttribute("aria-pressed", String(armed !== null && armed.kind === "rank" && armed.value === rank));
    });
    [].forEach.call(this.keys.querySelectorAll("button[data-suit]"), function (b) {
      var suit = b.dataset.suit;
      var left = RANKS.split("").filter(function (r) { return !used[r + suit]; });
      b.disabled = picker.cursor < 0 || !left.length ||
        (armed !== null && armed.kind === "rank" && !!used[armed.value + suit]);
      b.setAttribute("aria-pressed", String(armed !== null && armed.kind === "suit" && armed.value === suit));
    });
    if (this.deck) this.renderDeck(used);
    var undo = this.keys.querySelector("[data-picker-undo]");
    if (undo) undo.disabled = !this.history.length;
    this.status.textContent = this.describe();
  };

  Picker.prototype.renderDeck = function (used) {
    var picker = this;
    var where = this.where();
    [].forEach.call(this.deck.querySelectorAll("button[data-deck-card]"), function (b) {
      var code = b.dataset.deckCard;
      var placed = !!used[code];
      b.classList.toggle("placed", placed);
      // Nothing to place into once every row is full; a placed card can always go back.
      b.disabled = !placed && picker.cursor < 0;
      if (placed) {
        b.setAttribute("aria-label", fill(picker.texts.textPlaced, {
          card: shown(code), place: picker.rows[where[code]].place
        }));
      } else {
        b.removeAttribute("aria-label");
      }
    });
  };

  Picker.prototype.describe = function () {
    var texts = this.texts;
    if (this.cursor < 0) return texts.textDone;
    var row = this.rows[this.cursor];
    var next = fill(texts.textNext, {
      place: row.place, n: this.cards(this.cursor).length + 1, size: row.size
    });
    if (this.onDeck()) return next + " " + texts.textDeck;
    var armed = this.armed;
    if (!armed) return next + " " + texts.textIdle;
    var key = armed.kind === "rank" ? (armed.value === "T" ? "10" : armed.value) : SYMBOLS[armed.value];
    return next + " " + fill(armed.kind === "rank" ? texts.textRank : texts.textSuit, { key: key });
  };

  function setUp(root) {
    var forms = [].slice.call(root.querySelectorAll ? root.querySelectorAll("form[data-card-picker]") : []);
    if (root.matches && root.matches("form[data-card-picker]")) forms.push(root);
    forms.forEach(function (form) {
      if (form.dataset.pickerReady || !form.querySelector("[data-picker]")) return;
      form.dataset.pickerReady = "1";
      form.cardPicker = new Picker(form);
    });
  }

  function boot() {
    if (window.htmx) window.htmx.onLoad(setUp); else setUp(document);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
