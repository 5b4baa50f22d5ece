/* Escoba del 15, the page script: the selection and its checks.
 *
 * What the player picked (state.js `picked`) drawn on the board: the raised
 * hand card, the table cards that make 15 with it lit up (the groups come
 * from the server, data-groups, computed by the engine for your own hand
 * only), the selected ones, the hint and the coach's words; and the checks
 * that fill the play's form before it goes (a wrong sum is never sent: only
 * a warning shows).
 */

import { $, $all, handCard, tableCard, groupsOf, valueOf, sameSet, capital } from "./dom.js";
import { msg, picked } from "./state.js";
import { ROWS, rove } from "./focus.js";

var FIFTEEN = 15;

export function hint(text) {
  var el = $("#play-hint");
  if (el) el.textContent = text;
}

export function warn(text) {
  var el = $("#play-warning");
  if (!el) return;
  if (text) {
    el.textContent = text;
    el.hidden = false;
  } else {
    el.textContent = "";
    el.hidden = true;
  }
}

export function claimForm() {
  return $("#claim-form");
}

/* ------------------------------------------------------------ drawing */

export function render() {
  var raised = picked.hand ? handCard(picked.hand) : null;
  if (picked.hand && !raised) picked.hand = null;
  picked.table = picked.table.filter(function (n) {
    return tableCard(n) !== null;
  });
  $all(".hand-card").forEach(function (el) {
    var on = el === raised;
    el.classList.toggle("is-raised", on);
    el.setAttribute("aria-pressed", on ? "true" : "false");
  });
  // which table cards light up: the raised card's groups, or the claim's
  var lit = {};
  var groups = [];
  var claim = claimForm();
  if (raised) groups = groupsOf(raised);
  else if (claim) groups = groupsOf(claim);
  groups.forEach(function (g) {
    g.forEach(function (n) {
      lit[n] = true;
    });
  });
  $all(".table-card").forEach(function (el) {
    var n = el.getAttribute("data-card");
    var selected = picked.table.indexOf(n) >= 0;
    el.classList.toggle("can-take", !!lit[n]);
    el.classList.toggle("is-selected", selected);
    el.setAttribute("aria-pressed", selected ? "true" : "false");
  });
  ROWS.forEach(rove);
  describe(raised, claim);
  mainButton(raised);
  coachShow(raised, claim);
}

// The main (bright) style goes to the button the selection allows: LLEVAR
// for a card that makes 15 (or with table cards picked), DEJAR EN LA MESA
// for one that makes none; neither before a card is picked (LLEVAR EL 15,
// when offered, is the chance then: its own style).
function mainButton(raised) {
  var take = $("#btn-take");
  var leave = $("#btn-leave");
  if (!take || !leave) return;
  var main = null;
  if (raised) {
    if (picked.table.length || groupsOf(raised).length) main = take;
    else if (raised.getAttribute("data-can-leave") === "true") main = leave;
  }
  take.classList.toggle("btn-primary", main === take);
  leave.classList.toggle("btn-primary", main === leave);
}

function describe(raised, claim) {
  if (!$("#play-hint")) return;
  var sum = picked.table.reduce(function (s, n) {
    return s + valueOf(n);
  }, 0);
  if (raised) {
    var name = raised.getAttribute("data-name");
    var value = parseInt(raised.getAttribute("data-value"), 10);
    if (picked.table.length) {
      var total = value + sum;
      hint(capital(msg("plusTable", { card: name, sum: total })) + (total === FIFTEEN ? msg("sumOk") : ""));
    } else if (groupsOf(raised).length) {
      hint(capital(msg("canFifteen", { card: name })));
    } else {
      hint(capital(msg("noFifteen", { card: name })));
    }
  } else if (claim) {
    hint(msg("claimHint", { card: claim.getAttribute("data-name") }));
  } else {
    hint(msg("touchHand"));
  }
}

/* ------------------------------------------------------------ actions */

function sumMessage(total) {
  return msg("wrongSum", { sum: total });
}

// Fill the play form for LLEVAR; returns false (and warns) when it must not go.
function prepareCapture() {
  var raised = picked.hand ? handCard(picked.hand) : null;
  if (!raised) {
    warn(msg("firstHand"));
    return false;
  }
  var groups = groupsOf(raised);
  var chosen = picked.table.slice();
  if (!chosen.length) {
    if (groups.length === 1) {
      chosen = groups[0].slice();
    } else if (groups.length === 0) {
      warn(capital(msg("cannotFifteen", { card: raised.getAttribute("data-name") })));
      return false;
    } else {
      warn(msg("pickTable"));
      return false;
    }
  }
  var total = parseInt(raised.getAttribute("data-value"), 10);
  chosen.forEach(function (n) {
    total += valueOf(n);
  });
  if (total !== FIFTEEN) {
    warn(sumMessage(total));
    return false;
  }
  var form = $("#play-form");
  form.elements.card.value = picked.hand;
  form.elements.capture.value = chosen.join(" ");
  warn(null);
  return true;
}

function prepareLeave() {
  var raised = picked.hand ? handCard(picked.hand) : null;
  if (!raised) {
    warn(msg("firstLeave"));
    return false;
  }
  if (raised.getAttribute("data-can-leave") !== "true") {
    warn(msg("mustTake"));
    return false;
  }
  var form = $("#play-form");
  form.elements.card.value = picked.hand;
  form.elements.capture.value = "";
  warn(null);
  return true;
}

function prepareClaim() {
  var form = claimForm();
  if (!form) return false;
  var groups = groupsOf(form);
  var chosen = picked.table.filter(function (n) {
    return n !== form.getAttribute("data-card");
  });
  if (!chosen.length) {
    if (groups.length === 1) {
      chosen = groups[0].slice();
    } else {
      picked.hand = null;
      render();
      warn(msg("claimPick", { card: form.getAttribute("data-name") }));
      return false;
    }
  }
  var total = parseInt(form.getAttribute("data-value"), 10);
  chosen.forEach(function (n) {
    total += valueOf(n);
  });
  if (total !== FIFTEEN) {
    warn(sumMessage(total));
    return false;
  }
  var legal = groups.some(function (g) {
    return sameSet(g, chosen);
  });
  if (!legal) {
    warn(msg("claimMissing", { card: form.getAttribute("data-name") }));
    return false;
  }
  form.elements.group.value = chosen.join(" ");
  warn(null);
  return true;
}

export function prepare(id) {
  if (id === "btn-take") return prepareCapture();
  if (id === "btn-leave") return prepareLeave();
  return prepareClaim();
}

/* ------------------------------------------------------------ the coach (issue 28) */
// The server wrote, hidden, the coach's words for each legal action
// (templates/table/coach.html, when the coach is on); this shows those of
// the card picked: the play matching the picked table cards first, else
// every play of that card. Nothing picked: the hint alone. Kept apart so
// the rest of the page's script needs to know one call (in render).
function coachWords(text) {
  return text ? text.split(" ").filter(Boolean) : [];
}

function coachShow(raised, claim) {
  var box = $("#coach");
  if (!box) return;
  var options = $all(".coach-option", box);
  var shown = [];
  if (raised) {
    var card = raised.getAttribute("data-card");
    shown = options.filter(function (o) {
      return o.getAttribute("data-kind") === "play" && o.getAttribute("data-card") === card;
    });
  } else if (claim) {
    shown = options.filter(function (o) {
      return o.getAttribute("data-kind") === "claim";
    });
  }
  var exact = shown.filter(function (o) {
    var capture = coachWords(o.getAttribute("data-capture"));
    return picked.table.length > 0 && sameSet(capture, picked.table);
  });
  if (exact.length) shown = exact;
  options.forEach(function (o) {
    o.hidden = shown.indexOf(o) < 0;
    o.classList.toggle("is-picked", exact.indexOf(o) >= 0);
  });
  var coachHint = $("#coach-hint", box);
  if (coachHint) coachHint.hidden = shown.length > 0;
}
