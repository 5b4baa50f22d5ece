/* Escoba del 15: the small bit of behaviour the pages need.
 *
 * No inline scripts or handlers anywhere: everything hangs off document-level
 * listeners, so it keeps working after HTMX swaps a fresh board in.
 *
 * Playing a card: tap a hand card to raise it; the table cards that make 15
 * with it light up (the groups come from the server, data-groups, computed by
 * the engine for your own hand only). Tap table cards, then the raised card
 * again or LLEVAR. Or drag a hand card onto the table: with table cards
 * selected that make 15 it takes them, with none it is DEJAR EN LA MESA (pointer
 * events, so touch and mouse alike). A wrong sum is never sent: only a warning
 * shows. While a request is in flight nothing else is sent; the server's
 * version check stands behind that.
 *
 * Also here: the short animations of a play (respecting
 * prefers-reduced-motion), «¡Tu turno!» in the tab title and favicon,
 * AVISARME (notices by Web Push through the service worker, sw.js, or from
 * the tab while it is open in the background), the arrow keys along the hand
 * and the table (one Tab stop each), keyboard focus kept in place when a
 * fresh board is swapped in (and brought to the hand when the turn comes, or
 * when the page loads on this player's turn), the confirmation step of a
 * play (when the viewer asked for it), and the count of chat lines that
 * came while the chat was out of sight.
 * The words come from the page (body[data-messages]), in its language.
 */
(function () {
  "use strict";

  var FIFTEEN = 15;
  var DRAG_START = 8; // px of movement before a press becomes a drag
  var messages = {};
  var inFlight = false;

  function msg(key, params) {
    var text = messages[key] || key;
    Object.keys(params || {}).forEach(function (k) {
      text = text.split("{" + k + "}").join(String(params[k]));
    });
    return text;
  }

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }
  // What the player picked, by card notation; survives a board refresh.
  var picked = { hand: null, table: [] };

  function $(selector, root) {
    return (root || document).querySelector(selector);
  }

  function $all(selector, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(selector));
  }

  function handCard(notation) {
    return $('.hand-card[data-card="' + notation + '"]');
  }

  function tableCard(notation) {
    return $('.table-card[data-card="' + notation + '"]');
  }

  function groupsOf(el) {
    try {
      return JSON.parse(el.getAttribute("data-groups") || "[]");
    } catch (e) {
      return [];
    }
  }

  function valueOf(notation) {
    var el = tableCard(notation) || handCard(notation);
    return el ? parseInt(el.getAttribute("data-value"), 10) : 0;
  }

  function sameSet(a, b) {
    if (a.length !== b.length) return false;
    var sa = a.slice().sort();
    var sb = b.slice().sort();
    return sa.every(function (x, i) {
      return x === sb[i];
    });
  }

  function capital(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }

  function hint(text) {
    var el = $("#play-hint");
    if (el) el.textContent = text;
  }

  function warn(text) {
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

  function claimForm() {
    return $("#claim-form");
  }

  /* ------------------------------------------------------------ drawing */

  function render() {
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
    coachShow(raised, claim);
  }

  /* ------------------------------------------------------------ arrow keys */

  // The hand and the table are each one stop of Tab (a roving tabindex):
  // one card of the row has tabindex 0, the others -1, and the arrow keys
  // (Home, End) move between its cards. The card in the Tab order is the
  // last one focused, by notation, so it stays across board swaps; else the
  // raised card, else the first that can be played.
  var ROWS = ["hand", "table"];
  var ROW_CARDS = { hand: "#hand .hand-card", table: "#table-cards .table-card" };
  var roving = { hand: null, table: null };

  function rowOf(el) {
    if (el.matches(ROW_CARDS.hand)) return "hand";
    if (el.matches(ROW_CARDS.table)) return "table";
    return null;
  }

  function rove(row) {
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
      if (inFlight) return;
      if (card.classList.contains("hand-card")) onHandCard(card);
      else onTableCard(card);
      return;
    }
    var button = target.closest("button");
    if (!button) return;
    if (button.id === "notify-toggle") {
      toggleNotifications(button);
      return;
    }
    if (button.id === "btn-confirm" || button.id === "btn-cancel") {
      if (!inFlight) {
        if (button.id === "btn-confirm") sendConfirmed();
        else cancelConfirm();
      }
      return;
    }
    var ok = true;
    var play = PLAY_BUTTONS.indexOf(button.id) >= 0;
    if (inFlight && play) {
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
    if (play && confirmPanel() && !confirmed) {
      event.preventDefault(); // «Confirmar jugadas»: nothing goes before CONFIRMAR
      askConfirm(button.id);
      return;
    }
    if (play) {
      confirmed = false;
      dropConfirm();
    }
  });

  /* ------------------------------------------------------------ confirm a play */

  // With «Confirmar jugadas» on (the viewer's cookie: the server renders
  // #confirm-play), LLEVAR, DEJAR EN LA MESA and LLEVAR EL 15 (by button, by
  // tapping the raised card again, or by a drop) first say what the play
  // will do; CONFIRMAR sends it through the same button, CANCELAR (or Esc)
  // sends nothing and keeps the selection. The question survives a board
  // refresh (a chat line) while the play is still what it says.
  var PLAY_BUTTONS = ["btn-take", "btn-leave", "btn-claim"];
  var pending = null; // {button: id, from: where the focus was}
  var confirmed = false;

  function prepare(id) {
    if (id === "btn-take") return prepareCapture();
    if (id === "btn-leave") return prepareLeave();
    return prepareClaim();
  }

  function confirmPanel() {
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

  function askConfirm(id) {
    var el = document.activeElement;
    var from = null;
    if (el && el.getAttribute && el.getAttribute("data-card")) from = { card: el.getAttribute("data-card") };
    else if (el && el.id) from = { id: el.id };
    pending = { button: id, from: from };
    showConfirm(true);
  }

  // Forget the question (a card tapped, a play sent): the buttons come back.
  function dropConfirm() {
    pending = null;
    var panel = confirmPanel();
    if (!panel) return;
    panel.hidden = true;
    panel.parentNode.classList.remove("is-confirming");
  }

  function cancelConfirm() {
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

  function sendConfirmed() {
    var button = pending && document.getElementById(pending.button);
    if (!button) {
      dropConfirm();
      return;
    }
    confirmed = true;
    button.click();
    confirmed = false;
  }

  // After a board refresh: ask again if the play is still the same.
  function keepConfirm() {
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
    if (!el || el.disabled || inFlight) return;
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
    if (!cancelled && overFelt(event.clientX, event.clientY) && !inFlight) {
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

  /* ------------------------------------------------------------ animations */

  var seenMove = null; // the last move key this page has shown
  var before = { rects: {}, faces: {} }; // card positions before a swap

  function snapshot() {
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

  function animateMove(board) {
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

  /* ------------------------------------------------------------ your turn */

  var wasMyTurn = null;

  function syncTurn() {
    var board = $("#board .board");
    if (!board) return;
    var title = board.getAttribute("data-title");
    if (title && document.title !== title) document.title = title;
    var mine = board.getAttribute("data-my-turn") === "true";
    var icon = $("#favicon");
    if (icon) {
      if (!icon.getAttribute("data-idle-href")) icon.setAttribute("data-idle-href", icon.getAttribute("href"));
      // only when it changes: a link's href set again makes the browser load the icon again
      var href = icon.getAttribute(mine ? "data-turn-href" : "data-idle-href");
      if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
    }
    if (mine && wasMyTurn === false && document.hidden) notifyTurn();
    wasMyTurn = mine;
    syncNotifyButton();
  }

  /* ------------------------------------------------------------ this device's notices */

  // Notices of this seat's table when the page is not in front of the player:
  // one switch in «Avisos» (#notify-toggle), its words its state (off, on
  // here, blocked by the browser), beside the choice of which notices.
  // Where the browser has Web Push ("push"), the switch subscribes this browser
  // (one push subscription, one endpoint, for all its tables) and hands it to
  // the server for this table (POST /t/{invite}/push), which then notifies
  // even with every tab closed, through the service worker (/sw.js). Without
  // Web Push but with notifications ("tab"), as on browsers of old, the page
  // itself notifies while it is open in a background tab. The server sends
  // nothing while a page of the table is open, so in both modes a page in a
  // background tab notifies by itself when the turn comes.
  //
  // Which tables this browser asked notices of (and its endpoint) is kept in
  // the Cache API under a key that is no page, where the service worker reads
  // it too (sw.js, which sends the list again when the push service replaces
  // the subscription). On each load of a seated page the service worker is
  // registered again and the subscription checked: a new one (or one for a
  // new server key) is sent for every table on the list.

  var PUSH_STORE = "escoba-push-v1";
  var PUSH_STATE = "/push/state.json";
  var PUSH_TABLES_MAX = 200;
  var ICON = "/static/icons/icon-192.png";
  var BADGE = "/static/icons/badge-96.png";

  var notices = {
    mode: null, // "push", "tab" or "none"
    state: "off", // "on", "off", "blocked" or "unsupported"
    busy: false,
    note: "", // a sentence under the button: why, or what now
  };
  var swRegistration = null; // a promise of the service worker's registration

  function tableInvite() {
    var main = $("#main");
    return main ? main.getAttribute("data-invite") : null;
  }

  function seated() {
    var main = $("#main");
    return !!main && main.getAttribute("data-seated") === "true" && !!tableInvite();
  }

  function onIphone() {
    var ua = navigator.userAgent || "";
    return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  }

  function homeScreenApp() {
    return (
      navigator.standalone === true ||
      (!!window.matchMedia && window.matchMedia("(display-mode: standalone)").matches)
    );
  }

  function noticeMode() {
    var secure = window.isSecureContext !== false;
    if (secure && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window) {
      return "push";
    }
    return "Notification" in window ? "tab" : "none";
  }

  function emptyPushState() {
    return { endpoint: null, tables: [] };
  }

  function readPushState() {
    if (!window.caches) return Promise.resolve(emptyPushState());
    return window.caches
      .open(PUSH_STORE)
      .then(function (cache) {
        return cache.match(PUSH_STATE);
      })
      .then(function (response) {
        return response ? response.json() : emptyPushState();
      })
      .then(function (state) {
        return {
          endpoint: typeof state.endpoint === "string" ? state.endpoint : null,
          tables: Array.isArray(state.tables) ? state.tables.filter(Boolean) : [],
        };
      })
      .catch(emptyPushState);
  }

  function writePushState(state) {
    if (!window.caches) return Promise.resolve();
    var body = JSON.stringify({ endpoint: state.endpoint, tables: state.tables.slice(-PUSH_TABLES_MAX) });
    return window.caches
      .open(PUSH_STORE)
      .then(function (cache) {
        return cache.put(PUSH_STATE, new Response(body, { headers: { "Content-Type": "application/json" } }));
      })
      .catch(function () {
        /* no storage: this page still works, the list is not kept */
      });
  }

  function base64UrlBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function serverKey() {
    return window
      .fetch("/push/key", { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("no push key");
        return response.json();
      })
      .then(function (body) {
        return base64UrlBytes(body.key);
      });
  }

  // Whether a subscription was made for this server key (unknown: yes).
  function sameKey(subscription, key) {
    var made = subscription.options && subscription.options.applicationServerKey;
    if (!made) return true;
    var bytes = new Uint8Array(made);
    if (bytes.length !== key.length) return false;
    for (var i = 0; i < key.length; i++) if (bytes[i] !== key[i]) return false;
    return true;
  }

  // A refusal the server explains ({"error", "message"}) becomes an Error
  // with its message, for the player to read.
  function postJson(path, body) {
    return window
      .fetch(path, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      })
      .then(function (response) {
        if (response.ok) return response;
        return response
          .json()
          .catch(function () {
            return {};
          })
          .then(function (refusal) {
            var error = new Error(refusal.message || msg("notifyFailed"));
            error.status = response.status;
            error.told = !!refusal.message;
            throw error;
          });
      });
  }

  function pushPath(invite, rest) {
    return "/t/" + encodeURIComponent(invite) + "/push" + (rest || "");
  }

  // The table or this browser's seat at it is no more: forget it (sw.js too).
  function seatGone(status) {
    return status === 403 || status === 404 || status === 410;
  }

  // This browser's subscription, made for the server's current key.
  function subscription(registration, key, create) {
    var manager = registration.pushManager;
    return manager
      .getSubscription()
      .then(function (existing) {
        if (existing && !sameKey(existing, key)) {
          return existing.unsubscribe().then(function () {
            return null;
          });
        }
        return existing;
      })
      .then(function (existing) {
        if (existing || !create) return existing;
        return manager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      });
  }

  // Send a subscription whose endpoint is new to every table on the list
  // (but `skip`); the tables whose seat is gone leave the list.
  function resend(state, sub, skip) {
    if (!state.endpoint || state.endpoint === sub.endpoint) return Promise.resolve(state.tables);
    var json = sub.toJSON();
    return Promise.all(
      state.tables.map(function (invite) {
        if (invite === skip) return true;
        return postJson(pushPath(invite), json).then(
          function () {
            return true;
          },
          function (error) {
            return !seatGone(error.status);
          }
        );
      })
    ).then(function (keep) {
      return state.tables.filter(function (invite, i) {
        return keep[i];
      });
    });
  }

  // Asked from the click itself: iPhone lets a site ask only then. (Older
  // Safari answers through a callback instead of a promise.)
  function askPermission() {
    if (Notification.permission === "granted") return Promise.resolve("granted");
    return new Promise(function (resolve) {
      var answer = Notification.requestPermission(resolve);
      if (answer && answer.then) answer.then(resolve);
    });
  }

  function pushOn(invite) {
    return askPermission().then(function (permission) {
      if (permission !== "granted") {
        notices.state = permission === "denied" ? "blocked" : "off";
        notices.note = permission === "denied" ? msg("notifyDenied") : "";
        return null;
      }
      return Promise.all([swRegistration, serverKey(), readPushState()]).then(function (got) {
        return subscription(got[0], got[1], true).then(function (sub) {
          return postJson(pushPath(invite), sub.toJSON()).then(function () {
            return resend(got[2], sub, invite).then(function (tables) {
              tables = tables.filter(function (t) {
                return t !== invite;
              });
              tables.push(invite);
              notices.state = "on";
              notices.note = msg("notifyOnNote");
              return writePushState({ endpoint: sub.endpoint, tables: tables });
            });
          });
        });
      });
    });
  }

  function pushOff(invite) {
    return Promise.all([swRegistration, readPushState()]).then(function (got) {
      var state = got[1];
      return got[0].pushManager.getSubscription().then(function (sub) {
        var endpoint = sub ? sub.endpoint : state.endpoint;
        var told = endpoint
          ? postJson(pushPath(invite, "/remove"), { endpoint: endpoint }).catch(function (error) {
              if (!error.status || error.status >= 500) throw error; // not told: still on
            })
          : Promise.resolve();
        return told.then(function () {
          var tables = state.tables.filter(function (t) {
            return t !== invite;
          });
          notices.state = "off";
          notices.note = "";
          // the subscription stays while another table of this browser uses it
          var done = !tables.length && sub ? sub.unsubscribe() : Promise.resolve();
          return done.then(function () {
            return writePushState({ endpoint: tables.length ? endpoint : null, tables: tables });
          });
        });
      });
    });
  }

  // What the button says, from the browser and the list, and on a seated
  // page the subscription renewed when it changed.
  function refreshNotices() {
    var invite = tableInvite();
    if (notices.mode === "tab") {
      notices.state = Notification.permission === "denied" ? "blocked" : notificationsWanted() ? "on" : "off";
      notices.note = notices.state === "on" ? msg("notifyTabOnly") : "";
      if (notices.state === "blocked") notices.note = msg("notifyDenied");
      syncNotifyButton();
      return Promise.resolve();
    }
    if (notices.mode !== "push") {
      notices.state = "unsupported";
      syncNotifyButton();
      return Promise.resolve();
    }
    return readPushState()
      .then(function (state) {
        var listed = state.tables.indexOf(invite) >= 0;
        if (Notification.permission === "denied") {
          notices.state = "blocked";
          notices.note = msg("notifyDenied");
          return null;
        }
        if (Notification.permission !== "granted" || !state.tables.length) {
          notices.state = "off";
          return null;
        }
        return Promise.all([swRegistration, serverKey()]).then(function (got) {
          return subscription(got[0], got[1], true).then(function (sub) {
            return resend(state, sub, null).then(function (tables) {
              notices.state = listed && tables.indexOf(invite) >= 0 ? "on" : "off";
              return writePushState({ endpoint: sub.endpoint, tables: tables });
            });
          });
        });
      })
      .catch(function () {
        /* no key or no push service right now: the button says what was */
      })
      .then(syncNotifyButton);
  }

  function startNotices() {
    notices.mode = noticeMode();
    if (notices.mode === "push" && seated()) {
      swRegistration = navigator.serviceWorker.register("/sw.js");
      swRegistration.catch(function () {
        notices.mode = "tab"; // no service worker here (a private window): the page notifies
        refreshNotices();
      });
      navigator.serviceWorker.addEventListener("message", function (event) {
        if (event.data && event.data.type === "escoba-notice-click") {
          var banner = $("#turn-banner");
          if (banner) banner.focus({ preventScroll: false });
        }
      });
    } else if (notices.mode === "push") {
      notices.mode = "tab";
    }
    refreshNotices();
  }

  function notificationsWanted() {
    try {
      return window.localStorage.getItem("escoba-notify") === "1";
    } catch (e) {
      return false;
    }
  }

  // The turn came while this page is in a background tab.
  function notifyTurn() {
    if (notices.state !== "on" || Notification.permission !== "granted") return;
    var invite = tableInvite();
    var options = {
      body: msg("yourTurnBody"),
      icon: ICON,
      badge: BADGE,
      tag: "escoba-" + invite,
      renotify: true,
      data: { url: "/t/" + invite, kind: "turn" },
    };
    if (swRegistration) {
      swRegistration
        .then(function (registration) {
          return registration.showNotification(msg("yourTurn"), options);
        })
        .catch(function () {
          /* not shown: the tab title still says it */
        });
      return;
    }
    try {
      var note = new Notification(msg("yourTurn"), options);
      note.onclick = function () {
        window.focus();
        note.close();
      };
    } catch (e) {
      /* some browsers only notify from a service worker */
    }
  }

  function syncNotifyButton() {
    var button = $("#notify-toggle");
    if (!button) return;
    var note = $("#notify-note");
    var state = notices.state;
    var on = state === "on";
    button.hidden = false;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.classList.toggle("is-chosen", on);
    button.setAttribute("data-state", notices.busy ? "busy" : state);
    if (notices.busy) button.setAttribute("aria-busy", "true");
    else button.removeAttribute("aria-busy");
    // blocked: only the browser's settings can change it (the note says so);
    // unsupported stays a button: a tap says why, and on iPhone what to do
    if (state === "blocked") button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
    button.textContent = on ? msg("notifyOn") : state === "blocked" ? msg("notifyBlocked") : msg("notifyOff");
    if (note) {
      note.textContent = notices.note || "";
      note.hidden = !notices.note;
    }
  }

  function toggleNotifications(button) {
    if (notices.busy) return;
    var invite = tableInvite();
    if (notices.state === "blocked") {
      notices.note = msg("notifyDenied");
      syncNotifyButton();
      return;
    }
    if (notices.mode === "none" || !invite) {
      notices.note = onIphone() && !homeScreenApp() ? msg("notifyIphone") : msg("notifyUnsupported");
      syncNotifyButton();
      return;
    }
    if (notices.mode === "tab") {
      toggleTabNotices(button);
      return;
    }
    notices.busy = true;
    syncNotifyButton();
    var change = notices.state === "on" ? pushOff(invite) : pushOn(invite);
    change
      .catch(function (error) {
        notices.note = error && error.told ? error.message : msg("notifyFailed");
      })
      .then(function () {
        notices.busy = false;
        syncNotifyButton();
      });
  }

  // Notices from this tab only, where the browser has no Web Push.
  function toggleTabNotices(button) {
    var store = function (value) {
      try {
        window.localStorage.setItem("escoba-notify", value);
      } catch (e) {
        /* no storage: nothing to remember */
      }
    };
    if (notices.state === "on") {
      store("0");
      refreshNotices();
      return;
    }
    askPermission().then(function (permission) {
      store(permission === "granted" ? "1" : "0");
      refreshNotices();
    });
    button.blur();
  }

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

  function rememberFocus() {
    var el = document.activeElement;
    var board = $("#board");
    focusKey = null;
    if (!board || !focusOnBoard()) return;
    if (el && board.contains(el)) focusKey = keyOf(el);
    else focusKey = lastInBoard; // dropped on <body> (by the play that was sent), or none yet
  }

  function usable(el) {
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
  function restoreFocus(came) {
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
  function keepFocus() {
    if (!focusKey || !focusOnBoard()) return;
    var el = usable(twinOf(focusKey));
    if (el && !el.closest("details:not([open])")) el.focus({ preventScroll: true });
  }

  // The page loaded on this player's turn: the focus starts on the hand,
  // as when the turn comes, without scrolling from the page's top (a phone
  // shows the turn and the table first). Not when something has the focus
  // already, nor when the address names a place on the page.
  function focusHandOnLoad() {
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
  function turnChanged() {
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

  /* ------------------------------------------------------------ unread chat */

  // On a phone the chat is below the game: the «Chat» link in the game bar
  // counts the lines others wrote while the chat was out of sight (an
  // IntersectionObserver on the chat panel, which no swap replaces), and the
  // count clears when the chat is seen. Lines are told apart by their id
  // (data-line), so the count survives the chat log's out-of-band swaps.
  var chatSeen = null; // line id → true, for the lines already counted
  var unread = 0;
  var chatInView = true; // until the observer says otherwise: nothing counted

  function syncChatBadge() {
    var badge = $("#chat-badge");
    if (!badge) return;
    badge.hidden = !unread;
    badge.firstElementChild.textContent = unread ? String(unread) : "";
    badge.lastElementChild.textContent = !unread
      ? ""
      : unread === 1
        ? msg("chatUnreadOne")
        : msg("chatUnreadMany", { n: unread });
  }

  function countChat() {
    var lines = $all("#chat-log li[data-line]");
    var first = chatSeen === null;
    if (first) chatSeen = {};
    lines.forEach(function (li) {
      var id = li.getAttribute("data-line");
      if (chatSeen[id]) return;
      chatSeen[id] = true;
      if (!first && !chatInView && !li.classList.contains("is-mine")) unread += 1;
    });
    syncChatBadge();
  }

  // Every board a live update brings carries the chat log (out of band);
  // one that adds no line to the log shown (most updates: a move) is not
  // swapped: the log, its clocks and where it is scrolled stay as they are,
  // and the page lays out no chat again.
  function lineIds(root) {
    return Array.prototype.map
      .call(root.querySelectorAll("li"), function (li) {
        return li.getAttribute("data-line") || "-";
      })
      .join(" ");
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var d = event.detail;
    if (!d || !d.target || d.target.id !== "chat-log" || !d.fragment || !d.fragment.querySelector) return;
    if (lineIds(d.fragment) === lineIds(d.target)) d.shouldSwap = false;
  });

  function watchChat() {
    var panel = $("#main > .chat");
    if (!panel || !window.IntersectionObserver) return;
    new window.IntersectionObserver(
      function (entries) {
        var entry = entries[entries.length - 1];
        // seen: half of it, or enough of it to read a few lines
        chatInView = entry.isIntersecting && (entry.intersectionRatio >= 0.5 || entry.intersectionRect.height >= 120);
        if (chatInView && unread) {
          unread = 0;
          syncChatBadge();
        }
      },
      { threshold: [0, 0.25, 0.5, 0.75, 1] }
    ).observe(panel);
  }

  /* ------------------------------------------------------------ live stream */

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

  // The invite link is rendered as a path; show the full address to share.
  function absoluteInvite() {
    var input = $("#invite-link");
    if (input && input.value.charAt(0) === "/") {
      input.value = window.location.origin + input.value;
    }
  }

  function scrollChat() {
    var log = $("#chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  // Open <details> (a confirm step, the pause menu) stay open across refreshes.
  var openDetails = [];

  function beforeBoardSwap() {
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
      inFlight = false;
      openDetails.forEach(function (id) {
        var d = id && document.getElementById(id);
        if (d) d.open = true;
      });
      render();
      keepConfirm();
      absoluteInvite();
      syncTurn();
      // the focus first: focus() lays the new board out, and the animations'
      // measures then find it laid out (the other way round, twice)
      restoreFocus(turnChanged());
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
    if (elt && (elt.id === "play-form" || elt.id === "claim-form")) {
      inFlight = true;
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
      inFlight = false;
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
      elt.reset();
      var input = $("#chat-text");
      if (input) input.focus();
    }
    if (elt.id === "play-form" || elt.id === "claim-form") {
      inFlight = false;
      picked.hand = null;
      picked.table = [];
    }
  });

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

  function start() {
    try {
      messages = JSON.parse(document.body.getAttribute("data-messages") || "{}");
    } catch (e) {
      messages = {};
    }
    try {
      seenMove = window.sessionStorage.getItem("escoba-move");
    } catch (e) {
      seenMove = null;
    }
    absoluteInvite();
    scrollChat();
    render();
    startNotices();
    syncTurn();
    turnChanged();
    focusHandOnLoad();
    countChat();
    watchChat();
    var board = $("#board .board");
    if (board) animateMove(board);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
