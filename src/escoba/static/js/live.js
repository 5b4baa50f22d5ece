/* Escoba del 15, the page script: live updates and their retry.
 *
 * htmx swaps the boards the live stream brings (or fetches on its word) and
 * the answers to a play; this says «Reconectando…» while there is no
 * stream, keeps what must survive a swap (open <details>, what a person
 * ticked or typed and has not sent, the focus, where the cards were for
 * the animations), drops a board that is older than
 * the one shown or that the page shows already, tries again a fetch that
 * failed or came back behind, and after each swap has the other parts
 * draw their share of the fresh board (and a round's or the game's end,
 * as it comes, is scrolled into view).
 */

import { $, $all } from "./dom.js";
import { msg, picked, state } from "./state.js";
import { render } from "./select.js";
import { keepConfirm } from "./confirm.js";
import { absoluteInvite, arrivalAfterSwap } from "./play.js";
import { syncTurn } from "./notices.js";
import { rememberFocus, restoreFocus, keepFocus, turnChanged } from "./focus.js";
import { snapshot, animateMove } from "./motion.js";
import { scrollChat, countChat, countLetters, chatRefused } from "./chat.js";

/* ------------------------------------------------------------ live stream */

// The round's end or the game's, as a swap brings it: its heading in view.
// A phone scrolled down to its hand for the last play would keep its place
// and show the outcome cut at the top (or not at all); the page goes up
// (or down) to the outcome's panel, once, as it comes, not on each later
// refresh of it.
var OUTCOME = "#board .panel.summary, #board .winner";
var outcomeBefore = false;

function outcomeInView() {
  var panel = $(OUTCOME);
  var heading = panel && panel.querySelector("h2");
  if (outcomeBefore || !heading) return;
  var box = heading.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  var top = window.scrollY + panel.getBoundingClientRect().top - 8;
  window.scrollTo(0, Math.max(0, top));
}

// While the page has no live stream (the server restarting, the network
// gone) it says «Reconectando…». The browser reconnects by itself (or the
// SSE extension, after a refusal) and the server starts the new stream
// with an update when the table moved on meanwhile (Last-Event-ID, or the
// `since` of the stream's address), so the board catches up. A stream
// the server refused is retried by the extension ever more slowly: ask
// why (a HEAD holds no stream), and when it is 429 (too many open from
// this connection) say so instead.
function liveStatus(text) {
  var el = $("#live-status");
  if (!el) return;
  el.textContent = text || "";
  el.hidden = !text;
}

var liveOpen = false;

document.addEventListener("htmx:sseOpen", function () {
  liveOpen = true;
  liveStatus(null);
});

document.addEventListener("htmx:sseError", function (event) {
  var source = event.detail && event.detail.source;
  liveOpen = false;
  liveStatus(msg("reconnecting"));
  if (!source || source.readyState !== 2 || !window.fetch) return; // 2: CLOSED, refused
  window
    .fetch(source.url, { method: "HEAD", credentials: "same-origin", cache: "no-store" })
    .then(function (response) {
      if (response.status === 429 && !liveOpen) liveStatus(msg("tooManyStreams"));
    })
    .catch(function () {
      /* the server is away: «Reconectando…» stays */
    });
});

// Open <details> (a confirm step, the pause menu) stay open across refreshes.
var openDetails = [];

// What a person ticked or typed in a form of the board and has not sent
// (the notices' choices, the e-mail address): a refresh redraws the form as
// the server has it, so the edits are put back after it; sending the form
// forgets them. Kept by the form's address, then each field's name (and a
// box's value).
var edits = {};

function fieldKey(i) {
  var box = i.type === "checkbox" || i.type === "radio";
  return [i.name + " " + (box ? i.value : ""), box ? "checked" : "value"];
}

function edited(event) {
  var i = event.target;
  var f = i.form;
  var board = $("#board");
  if (!f || !board || !board.contains(f) || !i.name || /hidden|submit/.test(i.type)) return;
  if (/play|claim|chat/.test(f.id + f.className)) return;
  var a = f.getAttribute("action");
  var k = fieldKey(i);
  (edits[a] = edits[a] || {})[k[0]] = i[k[1]];
}

document.addEventListener("change", edited);
document.addEventListener("input", edited);

function putEditsBack() {
  $all("#board form").forEach(function (f) {
    var kept = edits[f.getAttribute("action")] || {};
    $all("[name]", f).forEach(function (i) {
      var k = fieldKey(i);
      if (k[0] in kept) i[k[1]] = kept[k[0]];
    });
  });
}

function beforeBoardSwap() {
  outcomeBefore = !!$(OUTCOME);
  openDetails = $all("#board details[open]").map(function (d) {
    return d.id;
  });
  snapshot();
  rememberFocus();
  // a focused control removed with the old board costs the swap a style
  // and layout of the whole page; restoreFocus puts the focus back after
  var el = document.activeElement;
  var board = $("#board");
  if (el && el !== document.body && board && board.contains(el) && el.blur) el.blur();
}

// The version a board's HTML shows (its first tag says it), NaN if none.
function versionIn(html) {
  var found = /data-version="(\d+)"/.exec(String(html || "").slice(0, 2000));
  return found ? Number(found[1]) : NaN;
}

function shownVersion() {
  var board = $("#board .board");
  return Number(board && board.getAttribute("data-version"));
}

// The chat lines a board's HTML carries (its chat log's), as a string.
function chatIn(html) {
  return (String(html || "").match(/data-line="\d+"/g) || []).join(" ");
}

function chatShown() {
  return $all("#chat-log li[data-line]")
    .map(function (li) {
      return 'data-line="' + li.getAttribute("data-line") + '"';
    })
    .join(" ");
}

// A play (or a claim) of this page is answered with the new board, and
// the stream brings that board too (the same version, the same chat):
// whichever comes second is not swapped again. `ownVersion`: the version
// the page's play was answered with; `pushedVersion`: the version of the
// last board the stream brought and the page swapped in.
var ownVersion = null;
var pushedVersion = null;

document.addEventListener("htmx:beforeSwap", function (event) {
  if (!(event.target && event.target.id === "board")) return;
  // a board older than the one shown (a play's late answer, a fetch
  // answered after the stream brought a newer one): not swapped back, and
  // the retry logic still hears of it
  if (overtaken(event.detail)) return;
  var xhr = event.detail && event.detail.xhr;
  var html = xhr ? xhr.responseText : "";
  var version = versionIn(html);
  var config = event.detail && event.detail.requestConfig;
  var id = config && config.elt && config.elt.id;
  var play = (id === "play-form" || id === "claim-form") && event.detail.shouldSwap;
  ownVersion = play ? version : null;
  var again =
    play && version === pushedVersion && version === shownVersion() &&
    chatIn(html) === chatShown() && !/role="alert"/.test(html.slice(0, 4000));
  if (again) {
    event.detail.shouldSwap = false;
    return;
  }
  beforeBoardSwap();
});

// A board the live stream brought (`event: board`, swapped by sse-swap):
// made for the cookies the stream was opened with, so one made for
// another deck design or «Confirmar jugadas» than the page shows now
// (chosen since) is dropped and the board fetched instead; one older than
// the board shown is dropped.
document.addEventListener("htmx:sseBeforeMessage", function (event) {
  var target = event.target;
  if (!target || target.id !== "board") return;
  var data = String((event.detail && event.detail.data) || "");
  var shown = $("#board .board");
  var view = /data-view="([^"]*)"/.exec(data.slice(0, 2000));
  var version = versionIn(data);
  if (version > boardWanted) boardWanted = version;
  if (shown && (!view || view[1] !== shown.getAttribute("data-view"))) {
    event.preventDefault();
    if (window.htmx) window.htmx.trigger(target, "board:retry");
    return;
  }
  var again = version === ownVersion && version === shownVersion() && chatIn(data) === chatShown();
  ownVersion = null;
  if (version < shownVersion() || again) {
    event.preventDefault();
    return;
  }
  pushedVersion = version;
  beforeBoardSwap();
});

document.addEventListener("htmx:afterSwap", function (event) {
  if (event.target && event.target.id === "board") keepFocus();
});

document.addEventListener("htmx:afterSettle", function (event) {
  if (event.target && event.target.id === "board") {
    state.inFlight = false;
    openDetails.forEach(function (id) {
      var d = id && document.getElementById(id);
      if (d) d.open = true;
    });
    putEditsBack();
    render();
    keepConfirm();
    absoluteInvite();
    syncTurn();
    // the focus first: focus() lays the new board out, and the animations'
    // measures then find it laid out (the other way round, twice)
    restoreFocus(turnChanged());
    outcomeInView();
    arrivalAfterSwap();
    var board = $("#board .board");
    if (board) animateMove(board);
    boardShown();
  }
  scrollChat();
  countChat();
});

// A play in flight: the form is swapped away with the board, so its own
// afterRequest may never reach the document; the board's settle (or an
// error) ends it.
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail && event.detail.elt;
  if (elt instanceof HTMLFormElement) delete edits[elt.getAttribute("action")];
  if (elt && (elt.id === "play-form" || elt.id === "claim-form")) {
    state.inFlight = true;
    picked.hand = null;
    picked.table = [];
  }
  // a deck design chosen: «Baraja» closes, to show the cards in it (it
  // stays open across the live refreshes of the board otherwise)
  var menu = elt && elt.classList && elt.classList.contains("design-switch") && elt.closest("details");
  if (menu) menu.open = false;
});

["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
  document.addEventListener(name, function (event) {
    state.inFlight = false;
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "board") retryBoard(); // the board stayed behind
  });
});

// The board catches up with the live stream: a fetch of it that failed (the
// network, a restart, a 5xx), or one that came back older than the newest
// version the stream announced, is tried again, after 1, 2, 4… s (at most
// 30), until the page shows that version.
var boardWanted = 0;
var boardDelay = 0;
var boardTimer = null;

document.addEventListener("htmx:sseMessage", function (event) {
  // an update's data is its version; a board's is its HTML, its id the version
  var detail = event.detail || {};
  var version = detail.type === "board" ? Number(detail.lastEventId) : Number(detail.data);
  if (version > boardWanted) boardWanted = version;
});

function retryBoard() {
  if (boardTimer) return;
  boardDelay = boardDelay ? Math.min(boardDelay * 2, 30000) : 1000;
  boardTimer = window.setTimeout(function () {
    boardTimer = null;
    var board = document.getElementById("board");
    // caught up meanwhile (another update's fetch): nothing to fetch
    if (board && window.htmx && behind()) window.htmx.trigger(board, "board:retry");
    else boardDelay = 0;
  }, boardDelay);
}

function behind() {
  var board = $("#board .board");
  var shown = Number(board && board.getAttribute("data-version"));
  return !shown || shown < boardWanted;
}

// An answer older than the board shown is not swapped in: a play's own
// answer (the play form is not the board, so htmx does not queue their
// requests) can come after the board of the next move, fetched on the
// stream's word, and would put the turn back, the cards out of reach and
// the focus off them, until the next fetch brought the turn again and the
// focus to the hand's first card. Still counted for the catching up. (The
// newer board's settle already ended the play in flight.)
function overtaken(detail) {
  if (!detail || !detail.shouldSwap) return false;
  var board = $("#board .board");
  var shown = Number(board && board.getAttribute("data-version"));
  var fresh = versionIn(detail.serverResponse);
  if (!shown || !fresh || fresh >= shown) return false;
  detail.shouldSwap = false;
  boardShown();
  return true;
}

function boardShown() {
  if (boardWanted && behind()) retryBoard();
  else boardDelay = 0;
}

document.addEventListener("htmx:afterRequest", function (event) {
  var elt = event.detail && event.detail.elt;
  if (!(elt instanceof HTMLFormElement)) return;
  if (elt.classList.contains("chat-form") && event.detail.successful) {
    // a line refused (said beside the chat) stays in the input to mend
    if (!chatRefused()) elt.reset();
    countLetters();
    var input = $("#chat-text");
    if (input) input.focus();
  }
  if (elt.id === "play-form" || elt.id === "claim-form") {
    state.inFlight = false;
    picked.hand = null;
    picked.table = [];
  }
});
