/* Escoba del 15: the small bit of behaviour the pages need.
 *
 * No inline scripts or handlers anywhere: everything hangs off document-level
 * listeners, so it keeps working after HTMX swaps a fresh board in.
 *
 * Native ES modules (js/), one per concern, each registering its own
 * listeners as it loads; this one starts them once the page is there:
 *
 * - js/state.js   what the parts share: the page's words, what the player
 *                 picked, a play in flight or being confirmed
 * - js/dom.js     finding the cards on the page, small helpers
 * - js/select.js  the selection drawn (raised card, cards that make 15, the
 *                 hint, the coach) and the checks before a play goes
 * - js/play.js    taps, drags and the board's buttons, a moved seat's word
 * - js/confirm.js the confirmation step of a play («Confirmar jugadas»)
 * - js/focus.js   the arrow keys, the focus kept across swaps, whose turn
 * - js/motion.js  the short animations of a play
 * - js/notices.js «¡Tu turno!» in the tab, AVISARME (this device's notices)
 * - js/push.js    Web Push: the subscription and the list sw.js reads
 * - js/chat.js    the chat log's scroll and its unread count, the letters
 *                 left in a line
 * - js/live.js    the live stream, the swaps of the board and their retry
 *
 * The words come from the page (body[data-messages]), in its language.
 * Served, each import names the content-named file (web/base/assets.py).
 */
import { readWords } from "./js/state.js";
import { $ } from "./js/dom.js";
import { render } from "./js/select.js";
import { absoluteInvite, arrivalNote } from "./js/play.js";
import { startNotices, syncTurn } from "./js/notices.js";
import { turnChanged, focusHandOnLoad } from "./js/focus.js";
import { scrollChat, countChat, watchChat, countLetters } from "./js/chat.js";
import { loadSeenMove, animateMove } from "./js/motion.js";
import "./js/live.js";

function start() {
  readWords();
  loadSeenMove();
  absoluteInvite();
  arrivalNote();
  scrollChat();
  render();
  startNotices();
  syncTurn();
  turnChanged();
  focusHandOnLoad();
  countChat();
  countLetters();
  watchChat();
  var board = $("#board .board");
  if (board) animateMove(board);
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
