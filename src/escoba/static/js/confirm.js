/* Escoba del 15, the page script: the confirmation step of a play (when the
 * viewer asked for it, «Confirmar jugadas»).
 */

import { $, handCard, tableCard, capital } from "./dom.js";
import { msg, state } from "./state.js";
import { claimForm, prepare } from "./select.js";
import { usable } from "./focus.js";

/* ------------------------------------------------------------ confirm a play */

// With «Confirmar jugadas» on (the viewer's cookie: the server renders
// #confirm-play), LLEVAR, DEJAR EN LA MESA and LLEVAR EL 15 (by button, by
// tapping the raised card again, or by a drop) first say what the play
// will do; CONFIRMAR sends it through the same button, CANCELAR (or Esc)
// sends nothing and keeps the selection. The question survives a board
// refresh (a chat line) while the play is still what it says.
export var PLAY_BUTTONS = ["btn-take", "btn-leave", "btn-claim"];
var pending = null; // {button: id, from: where the focus was}

export function confirmPanel() {
  return $("#confirm-play");
}

function andList(items) {
  if (items.length < 2) return items.join("");
  return msg("andList", { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

function namesOf(notations) {
  return notations
    .split(" ")
    .filter(Boolean)
    .map(function (n) {
      var el = tableCard(n);
      return el ? el.getAttribute("data-name") : n;
    });
}

function confirmText(id) {
  if (id === "btn-claim") {
    var claim = claimForm();
    var cards = [claim.getAttribute("data-name")].concat(namesOf(claim.elements.group.value));
    return msg("confirmClaim", { cards: andList(cards) });
  }
  var form = $("#play-form");
  var card = handCard(form.elements.card.value);
  var name = card ? card.getAttribute("data-name") : form.elements.card.value;
  if (id === "btn-leave") return capital(msg("confirmLeave", { card: name }));
  return capital(msg("confirmTake", { cards: andList(namesOf(form.elements.capture.value)), card: name }));
}

function showConfirm(focus) {
  var panel = confirmPanel();
  if (!panel || !pending) return;
  $("#confirm-play-text").textContent = confirmText(pending.button);
  panel.hidden = false;
  panel.parentNode.classList.add("is-confirming");
  if (focus) $("#btn-confirm").focus({ preventScroll: true });
}

export function askConfirm(id) {
  var el = document.activeElement;
  var from = null;
  if (el && el.getAttribute && el.getAttribute("data-card")) from = { card: el.getAttribute("data-card") };
  else if (el && el.id) from = { id: el.id };
  pending = { button: id, from: from };
  showConfirm(true);
}

// Forget the question (a card tapped, a play sent): the buttons come back.
export function dropConfirm() {
  pending = null;
  var panel = confirmPanel();
  if (!panel) return;
  panel.hidden = true;
  panel.parentNode.classList.remove("is-confirming");
}

export function cancelConfirm() {
  var from = pending && pending.from;
  var hadFocus = !!document.activeElement && !!confirmPanel() && confirmPanel().contains(document.activeElement);
  dropConfirm();
  if (!hadFocus) return;
  var el = null;
  if (from && from.card) el = $('#board [data-card="' + from.card + '"]');
  else if (from && from.id) el = document.getElementById(from.id);
  el = usable(el) || usable($("#btn-leave")) || usable($("#hand .hand-card:not([disabled])"));
  if (el) el.focus({ preventScroll: true });
}

export function sendConfirmed() {
  var button = pending && document.getElementById(pending.button);
  if (!button) {
    dropConfirm();
    return;
  }
  state.confirmed = true;
  button.click();
  state.confirmed = false;
}

// After a board refresh: ask again if the play is still the same.
export function keepConfirm() {
  if (!pending) return;
  var id = pending.button;
  if (!confirmPanel() || !document.getElementById(id) || !prepare(id)) {
    pending = null;
    return;
  }
  showConfirm(false);
}

document.addEventListener("keydown", function (event) {
  if (event.key === "Escape" && pending) cancelConfirm();
});
