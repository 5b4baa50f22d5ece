/* Escoba del 15, the page script: playing a card.
 *
 * Tap a hand card to raise it; the table cards that make 15 with it light
 * up (select.js). Tap table cards, then the raised card again or LLEVAR. Or
 * drag a hand card onto the table: with table cards selected that make 15
 * it takes them, with none it is DEJAR EN LA MESA (pointer events, so touch
 * and mouse alike). While a request is in flight nothing else is sent; the
 * server's version check stands behind that. Also here, by the same click
 * listener: the board's other buttons (AVISARME, the copy of the invite
 * link), and the ✕ of the note a seat moved here by a code shows.
 */

import { $, capital } from "./dom.js";
import { msg, picked, state } from "./state.js";
import { hint, warn, claimForm, render, prepare } from "./select.js";
import { PLAY_BUTTONS, confirmPanel, askConfirm, dropConfirm, cancelConfirm, sendConfirmed } from "./confirm.js";
import { toggleNotifications } from "./notices.js";

var DRAG_START = 8; // px of movement before a press becomes a drag

function onHandCard(el) {
  var n = el.getAttribute("data-card");
  dropConfirm();
  warn(null);
  if (picked.hand === n) {
    if (picked.table.length) {
      var take = $("#btn-take");
      if (take) take.click();
      return;
    }
    picked.hand = null;
  } else {
    picked.hand = n;
    picked.table = [];
  }
  render();
}

function onTableCard(el) {
  var n = el.getAttribute("data-card");
  dropConfirm();
  warn(null);
  if (!picked.hand && !claimForm()) {
    warn(msg("firstHand"));
    return;
  }
  if (!picked.hand && claimForm() && n === claimForm().getAttribute("data-card")) {
    hint(capital(msg("claimAlready", { card: el.getAttribute("data-name") })));
    return;
  }
  var i = picked.table.indexOf(n);
  if (i >= 0) picked.table.splice(i, 1);
  else picked.table.push(n);
  render();
}

document.addEventListener("click", function (event) {
  var target = event.target;
  if (!(target instanceof Element)) return;
  if (suppressClick) {
    suppressClick = false;
    if (target.closest(".hand-card")) {
      event.preventDefault();
      return;
    }
  }
  var card = target.closest(".hand-card, .table-card");
  if (card && !card.disabled) {
    if (state.inFlight) return;
    if (card.classList.contains("hand-card")) onHandCard(card);
    else onTableCard(card);
    return;
  }
  var button = target.closest("button");
  if (!button) return;
  if (button.id === "arrived-close") {
    dropArrivalNote();
    return;
  }
  if (button.id === "notify-toggle") {
    toggleNotifications(button);
    return;
  }
  if (button.id === "btn-confirm" || button.id === "btn-cancel") {
    if (!state.inFlight) {
      if (button.id === "btn-confirm") sendConfirmed();
      else cancelConfirm();
    }
    return;
  }
  var ok = true;
  var play = PLAY_BUTTONS.indexOf(button.id) >= 0;
  if (state.inFlight && play) {
    event.preventDefault();
    return;
  }
  if (play) ok = prepare(button.id);
  else if (button.hasAttribute("data-copy")) {
    copyLink(button);
    return;
  }
  if (!ok) {
    event.preventDefault();
    return;
  }
  if (play && confirmPanel() && !state.confirmed) {
    event.preventDefault(); // «Confirmar jugadas»: nothing goes before CONFIRMAR
    askConfirm(button.id);
    return;
  }
  if (play) {
    state.confirmed = false;
    dropConfirm();
  }
});

/* ------------------------------------------------------------ drag to play */

var drag = null; // {el, id, x0, y0, moving}
var suppressClick = false;

function overFelt(x, y) {
  var felt = $("#felt");
  if (!felt) return false;
  var r = felt.getBoundingClientRect();
  return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
}

// A card dropped on the table: capture the selected cards, or leave it.
function dropOnTable(el) {
  var n = el.getAttribute("data-card");
  if (picked.hand !== n) {
    picked.hand = n;
    picked.table = [];
  }
  render();
  var button = $(picked.table.length ? "#btn-take" : "#btn-leave");
  if (button) button.click();
}

document.addEventListener("pointerdown", function (event) {
  var target = event.target;
  if (!(target instanceof Element) || event.button !== 0) return;
  var el = target.closest(".hand-card");
  if (!el || el.disabled || state.inFlight) return;
  drag = { el: el, id: event.pointerId, x0: event.clientX, y0: event.clientY, moving: false };
});

document.addEventListener("pointermove", function (event) {
  if (!drag || event.pointerId !== drag.id) return;
  var dx = event.clientX - drag.x0;
  var dy = event.clientY - drag.y0;
  if (!drag.moving) {
    if (Math.abs(dx) + Math.abs(dy) < DRAG_START) return;
    drag.moving = true;
    drag.el.classList.add("is-dragging");
    try {
      drag.el.setPointerCapture(drag.id);
    } catch (e) {
      /* the pointer may already be gone */
    }
    hint(msg("dragHere"));
  }
  event.preventDefault();
  drag.el.style.setProperty("--drag-x", dx + "px");
  drag.el.style.setProperty("--drag-y", dy + "px");
  var felt = $("#felt");
  if (felt) felt.classList.toggle("is-drop-hover", overFelt(event.clientX, event.clientY));
});

function endDrag(event, cancelled) {
  if (!drag || event.pointerId !== drag.id) return;
  var d = drag;
  drag = null;
  if (!d.moving) return;
  suppressClick = true;
  window.setTimeout(function () {
    suppressClick = false;
  }, 0);
  d.el.classList.remove("is-dragging");
  d.el.style.removeProperty("--drag-x");
  d.el.style.removeProperty("--drag-y");
  var felt = $("#felt");
  if (felt) felt.classList.remove("is-drop-hover");
  if (!cancelled && overFelt(event.clientX, event.clientY) && !state.inFlight) {
    dropOnTable(d.el);
  } else {
    render();
  }
}

document.addEventListener("pointerup", function (event) {
  endDrag(event, false);
});
document.addEventListener("pointercancel", function (event) {
  endDrag(event, true);
});

/* ------------------------------------------------------------ the rest */

function copyLink(button) {
  var input = $(button.getAttribute("data-copy"));
  if (!input) return;
  var done = function () {
    var label = button.textContent;
    button.textContent = button.getAttribute("data-copied") || label;
    window.setTimeout(function () {
      button.textContent = label;
    }, 1600);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, function () {
      input.select();
    });
  } else {
    input.select();
    try {
      document.execCommand("copy");
      done();
    } catch (e) {
      /* the text stays selected for a manual copy */
    }
  }
}

// «Ya tienes esta mesa en este dispositivo»: the seat a code just brought
// here, said over the page's top (the game is not pushed down) until its
// ✕, a touch elsewhere on the page or a board of a newer version (a board
// fetched for other news leaves it). The address loses its `llegada`, so a
// reload or a bookmark does not say it again. (The home page's word of
// the tables a code brought stays in its place: it hides nothing.)
var ARRIVED = ".live > #arrived-note";
var arrivedAt = null;

function boardVersion() {
  var board = $("#board .board");
  return board ? board.getAttribute("data-version") : null;
}

export function arrivalNote() {
  if (!$(ARRIVED)) return;
  arrivedAt = boardVersion();
  if (!window.URL || !window.history.replaceState) return;
  var url = new URL(window.location.href);
  if (!url.searchParams.has("llegada")) return;
  url.searchParams.delete("llegada");
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
}

function dropArrivalNote() {
  var note = $(ARRIVED);
  if (note) note.remove();
}

export function arrivalAfterSwap() {
  if (boardVersion() !== arrivedAt) dropArrivalNote();
}

document.addEventListener("pointerdown", function (event) {
  var note = $(ARRIVED);
  if (note && !(event.target instanceof Node && note.contains(event.target))) dropArrivalNote();
});

// The invite link is rendered as a path; show the full address to share.
export function absoluteInvite() {
  var input = $("#invite-link");
  if (input && input.value.charAt(0) === "/") {
    input.value = window.location.origin + input.value;
  }
}
