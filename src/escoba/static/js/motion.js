/* Escoba del 15, the page script: the short animations of a play (the
 * cards that fly to a pile, the card left on the table, ¡ESCOBA!),
 * respecting prefers-reduced-motion.
 */

import { $, $all, tableCard, reducedMotion } from "./dom.js";

/* ------------------------------------------------------------ animations */

var seenMove = null; // the last move key this page has shown
var before = { rects: {}, faces: {} }; // card positions before a swap

export function snapshot() {
  before = { rects: {}, faces: {} };
  $all("#board .card[data-card]").forEach(function (el) {
    var n = el.getAttribute("data-card");
    before.rects[n] = el.getBoundingClientRect();
    before.faces[n] = el.innerHTML;
  });
}

function seatRect(seat) {
  var el = $('.seat[data-seat="' + seat + '"] .seat-pile') || $('.seat[data-seat="' + seat + '"]');
  return el ? el.getBoundingClientRect() : null;
}

function fly(face, from, to) {
  if (!face || !from || !to || !document.body.animate) return;
  var ghost = document.createElement("div");
  ghost.className = "card-ghost";
  ghost.setAttribute("aria-hidden", "true");
  ghost.innerHTML = face;
  ghost.style.left = from.left + "px";
  ghost.style.top = from.top + "px";
  ghost.style.width = from.width + "px";
  document.body.appendChild(ghost);
  var dx = to.left + to.width / 2 - (from.left + from.width / 2);
  var dy = to.top + to.height / 2 - (from.top + from.height / 2);
  var anim = ghost.animate(
    [
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
      { transform: "translate(" + dx + "px, " + dy + "px) scale(0.35)", opacity: 0.2 },
    ],
    { duration: 520, easing: "cubic-bezier(.5,0,.3,1)" }
  );
  anim.onfinish = function () {
    ghost.remove();
  };
}

export function animateMove(board) {
  var key = board.getAttribute("data-move-key");
  if (!key || key === seenMove) return;
  var first = seenMove === null;
  seenMove = key;
  try {
    window.sessionStorage.setItem("escoba-move", key);
  } catch (e) {
    /* private mode */
  }
  if (first) return; // a page load shows the table as it is
  var splash = $("#escoba-splash");
  if (splash) {
    splash.hidden = false;
    splash.classList.add("is-shown");
    window.setTimeout(function () {
      splash.hidden = true;
    }, reducedMotion() ? 1400 : 1600);
  }
  if (reducedMotion()) return;
  var kind = board.getAttribute("data-move-kind");
  var seat = board.getAttribute("data-move-seat");
  var played = board.getAttribute("data-move-played");
  var taken = (board.getAttribute("data-move-taken") || "").split(" ").filter(Boolean);
  var mine = seat === board.getAttribute("data-you");
  var origin = mine && before.rects[played] ? before.rects[played] : seatRect(seat);
  if (kind === "leave") {
    var el = tableCard(played);
    if (el && origin && el.animate) {
      var to = el.getBoundingClientRect();
      el.animate(
        [
          {
            transform:
              "translate(" + (origin.left - to.left) + "px, " + (origin.top - to.top) + "px) scale(0.8)",
            opacity: 0.4,
          },
          { transform: "none", opacity: 1 },
        ],
        { duration: 380, easing: "cubic-bezier(.2,.8,.3,1)" }
      );
    }
  } else {
    var pile = seatRect(seat);
    taken.forEach(function (n) {
      fly(before.faces[n], before.rects[n], pile);
    });
    if (kind === "take" && mine) fly(before.faces[played], before.rects[played], pile);
  }
}

// The last move this tab has shown, so that a page loaded again does not
// play it again.
export function loadSeenMove() {
  try {
    seenMove = window.sessionStorage.getItem("escoba-move");
  } catch (e) {
    seenMove = null;
  }
}
