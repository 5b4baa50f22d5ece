/* Escoba del 15, the page script: focus and keyboard.
 *
 * The arrow keys along the hand and the table (one Tab stop each), and the
 * keyboard focus kept in place when a fresh board is swapped in (brought
 * to the hand when the turn comes, or when the page loads on this player's
 * turn); the live region that says whose turn it is.
 */

import { $, $all } from "./dom.js";
import { picked } from "./state.js";

/* ------------------------------------------------------------ arrow keys */

// The hand and the table are each one stop of Tab (a roving tabindex):
// one card of the row has tabindex 0, the others -1, and the arrow keys
// (Home, End) move between its cards. The card in the Tab order is the
// last one focused, by notation, so it stays across board swaps; else the
// raised card, else the first that can be played.
export var ROWS = ["hand", "table"];
var ROW_CARDS = { hand: "#hand .hand-card", table: "#table-cards .table-card" };
var roving = { hand: null, table: null };

function rowOf(el) {
  if (el.matches(ROW_CARDS.hand)) return "hand";
  if (el.matches(ROW_CARDS.table)) return "table";
  return null;
}

export function rove(row) {
  var cards = $all(ROW_CARDS[row]);
  var open = cards.filter(function (el) {
    return !el.disabled;
  });
  var at = function (n) {
    return (
      open.filter(function (el) {
        return el.getAttribute("data-card") === n;
      })[0] || null
    );
  };
  var stop = at(roving[row]) || (row === "hand" ? at(picked.hand) : null) || open[0] || cards[0];
  cards.forEach(function (el) {
    el.setAttribute("tabindex", el === stop ? "0" : "-1");
  });
}

document.addEventListener("focusin", function (event) {
  var el = event.target;
  var row = el instanceof Element ? rowOf(el) : null;
  if (!row || el.disabled) return;
  roving[row] = el.getAttribute("data-card");
  rove(row);
});

var STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

document.addEventListener("keydown", function (event) {
  var el = event.target;
  var row = el instanceof Element ? rowOf(el) : null;
  if (!row || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  var open = $all(ROW_CARDS[row]).filter(function (c) {
    return !c.disabled;
  });
  var i = open.indexOf(el);
  var next = null;
  if (event.key === "Home") next = open[0];
  else if (event.key === "End") next = open[open.length - 1];
  else if (STEPS[event.key] && i >= 0) next = open[(i + STEPS[event.key] + open.length) % open.length];
  else return;
  event.preventDefault(); // not the page's scroll
  if (next) next.focus();
});

/* ------------------------------------------------------------ focus */

// Keyboard play keeps its place. A play's button is disabled while the
// play is sent (hx-disabled-elt), which drops the focus on <body>, and the
// swap removes the rest: so the last control focused in #board is kept as
// it is focused, and after a swap the focus goes back to its twin, or to
// the hand, the round's button or the turn banner. When the turn comes
// back to this player, the focus goes to the hand, and the live region
// #turn-announce (outside the board, so screen readers hear it) says
// whose turn it is. Never when the focus is elsewhere (the chat input).
var lastInBoard = null; // the key (keyOf) of the last control focused in #board
var focusOutside = false; // the last focus went outside #board
var focusKey = null;
var lastTurn = null; // {mine, text, move} of the board shown before

// A control's twin in the next board; `play`: it is one of the game's own
// (the cards, the play buttons, the banner, the round's end), where the
// focus may leave for the hand when the turn comes, not a form of the bar.
function keyOf(el) {
  var key = { inside: true };
  if (el.getAttribute("data-card")) key = { card: el.getAttribute("data-card") };
  else if (el.id) key = { id: el.id };
  else if (el.name && window.CSS && CSS.escape) {
    key = { field: '[name="' + CSS.escape(el.name) + '"][value="' + CSS.escape(el.value || "") + '"]' };
  }
  key.play = !!el.closest(".felt, .hand-area, #turn-banner, .summary, .winner");
  return key;
}

document.addEventListener("focusin", function (event) {
  var el = event.target;
  var board = $("#board");
  if (!(el instanceof Element) || !board) return;
  focusOutside = !board.contains(el);
  if (!focusOutside) lastInBoard = keyOf(el);
});

// The focus is on the board, or lost with no other place (<body>).
function focusOnBoard() {
  var el = document.activeElement;
  var board = $("#board");
  if (el && board && board.contains(el)) return true;
  return (!el || el === document.body || el === document.documentElement) && !focusOutside;
}

export function rememberFocus() {
  var el = document.activeElement;
  var board = $("#board");
  focusKey = null;
  if (!board || !focusOnBoard()) return;
  if (el && board.contains(el)) focusKey = keyOf(el);
  else focusKey = lastInBoard; // dropped on <body> (by the play that was sent), or none yet
}

export function usable(el) {
  return el && !el.disabled && !el.closest("[hidden]") ? el : null;
}

// An element in a closed <details> (a design chosen in «Baraja», which
// closes): the focus goes to the summary that opens it again.
function shown(el) {
  var closed = el && !el.matches("summary") && el.closest("details:not([open])");
  return closed ? closed.querySelector("summary") : el;
}

function focusHome() {
  return (
    usable($("#hand .hand-card:not([disabled])")) ||
    usable($("#board .summary button, #board .winner button")) ||
    usable($("#turn-banner")) ||
    usable($("#board .btn"))
  );
}

// After a swap; `came`: the turn just came to this player.
export function restoreFocus(came) {
  var key = focusKey;
  focusKey = null;
  // moved elsewhere since the swap began (into the chat, while it settled)
  if (!focusOnBoard()) return;
  if (came && (!key || key.play)) {
    var first = usable($("#hand .hand-card:not([disabled])"));
    if (first) {
      first.focus({ preventScroll: true });
      return;
    }
  }
  if (!key) return;
  var el = usable(shown(twinOf(key))) || focusHome();
  if (el) el.focus({ preventScroll: true });
}

function twinOf(key) {
  if (key.card) return $('#board [data-card="' + key.card + '"]:not([disabled])');
  if (key.id) return document.getElementById(key.id);
  if (key.field) return $("#board " + key.field);
  return null;
}

// At once after the swap, before the settle (20 ms on): the focus goes
// back to its twin, so that a key pressed meanwhile lands where it was
// aimed, not on <body>. The settle then does the rest (restoreFocus).
export function keepFocus() {
  if (!focusKey || !focusOnBoard()) return;
  var el = usable(twinOf(focusKey));
  if (el && !el.closest("details:not([open])")) el.focus({ preventScroll: true });
}

// The page loaded on this player's turn: the focus starts on the hand,
// as when the turn comes, without scrolling from the page's top (a phone
// shows the turn and the table first). Not when something has the focus
// already, nor when the address names a place on the page.
export function focusHandOnLoad() {
  var board = $("#board .board");
  var el = document.activeElement;
  if (!board || board.getAttribute("data-my-turn") !== "true" || window.location.hash) return;
  if (el && el !== document.body && el !== document.documentElement) return;
  var first = usable($("#hand .hand-card:not([disabled])"));
  if (first) first.focus({ preventScroll: true });
}

function announce(text) {
  var region = $("#turn-announce");
  if (!region || !text) return;
  if (region.textContent === text) region.textContent = "";
  window.setTimeout(function () {
    region.textContent = text;
  }, 50);
}

// Say whose turn it is when that changes; true when it just came to this
// player (from another's move: not after taking a 15 that was left).
export function turnChanged() {
  var board = $("#board .board");
  var banner = $("#turn-banner");
  if (!board) return false;
  var now = {
    mine: board.getAttribute("data-my-turn") === "true",
    text: banner ? banner.getAttribute("data-announce") || "" : "",
    move: board.getAttribute("data-move-key") || "",
  };
  var before = lastTurn;
  lastTurn = now;
  if (!before) return false; // the page as loaded: the title says it
  var byOther = board.getAttribute("data-move-seat") !== board.getAttribute("data-you");
  var came = now.mine && (!before.mine || (now.move !== before.move && byOther));
  if (came || now.text !== before.text) announce(now.text);
  return came;
}
