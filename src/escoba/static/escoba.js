/* Escoba del 15: the small bit of behaviour the pages need.
 *
 * No inline scripts or handlers anywhere: everything hangs off document-level
 * listeners, so it keeps working after HTMX swaps a fresh board in.
 *
 * Playing a card: tap a hand card to raise it; the table cards that make 15
 * with it light up (the groups come from the server, data-groups, computed by
 * the engine for your own hand only). Tap table cards, then the raised card
 * again or LLEVAR. A wrong sum is never sent: only a warning shows.
 */
(function () {
  "use strict";

  var FIFTEEN = 15;
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
    describe(raised, claim);
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
        hint(capital(name) + " + mesa: " + (value + sum) + (value + sum === FIFTEEN ? " ✓ — toca LLEVAR" : ""));
      } else if (groupsOf(raised).length) {
        hint("Con " + name + " puedes hacer 15: toca las cartas iluminadas.");
      } else {
        hint(capital(name) + " no hace 15 con la mesa: DEJAR EN LA MESA.");
      }
    } else if (claim) {
      hint("LLEVAR EL 15: toca las cartas que van con " + claim.getAttribute("data-name") + ", o elige una carta de tu mano.");
    } else {
      hint("Toca una carta de tu mano.");
    }
  }

  /* ------------------------------------------------------------ actions */

  function sumMessage(total) {
    return "Esas cartas suman " + total + ", no 15";
  }

  // Fill the play form for LLEVAR; returns false (and warns) when it must not go.
  function prepareCapture() {
    var raised = picked.hand ? handCard(picked.hand) : null;
    if (!raised) {
      warn("Primero toca una carta de tu mano.");
      return false;
    }
    var groups = groupsOf(raised);
    var chosen = picked.table.slice();
    if (!chosen.length) {
      if (groups.length === 1) {
        chosen = groups[0].slice();
      } else if (groups.length === 0) {
        warn("Con " + raised.getAttribute("data-name") + " no se puede hacer 15.");
        return false;
      } else {
        warn("Toca las cartas de la mesa que quieres llevarte.");
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
      warn("Primero toca la carta de tu mano que vas a dejar en la mesa.");
      return false;
    }
    if (raised.getAttribute("data-can-leave") !== "true") {
      warn("En esta mesa hay que llevarse el 15 cuando se puede.");
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
        warn("Toca las cartas de la mesa que van con " + form.getAttribute("data-name") + ".");
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
      warn("Ese 15 no incluye " + form.getAttribute("data-name") + ".");
      return false;
    }
    form.elements.group.value = chosen.join(" ");
    warn(null);
    return true;
  }

  function onHandCard(el) {
    var n = el.getAttribute("data-card");
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
    warn(null);
    if (!picked.hand && !claimForm()) {
      warn("Primero toca una carta de tu mano.");
      return;
    }
    if (!picked.hand && claimForm() && n === claimForm().getAttribute("data-card")) {
      hint(capital(el.getAttribute("data-name")) + " ya va en el 15: toca las otras cartas.");
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
    var card = target.closest(".hand-card, .table-card");
    if (card && !card.disabled) {
      if (card.classList.contains("hand-card")) onHandCard(card);
      else onTableCard(card);
      return;
    }
    var button = target.closest("button");
    if (!button) return;
    var ok = true;
    if (button.id === "btn-take") ok = prepareCapture();
    else if (button.id === "btn-leave") ok = prepareLeave();
    else if (button.id === "btn-claim") ok = prepareClaim();
    else if (button.hasAttribute("data-copy")) {
      copyLink(button);
      return;
    }
    if (!ok) event.preventDefault();
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

  function syncTitle() {
    var board = $("#board .board");
    if (board && board.getAttribute("data-title")) {
      document.title = board.getAttribute("data-title");
    }
  }

  // Open <details> (a confirm step, the pause menu) stay open across refreshes.
  var openDetails = [];

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.target && event.target.id === "board") {
      openDetails = $all("#board details[open]").map(function (d) {
        return d.id;
      });
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "board") {
      openDetails.forEach(function (id) {
        var d = id && document.getElementById(id);
        if (d) d.open = true;
      });
      render();
      absoluteInvite();
      syncTitle();
    }
    scrollChat();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!(elt instanceof HTMLFormElement)) return;
    if (elt.classList.contains("chat-form") && event.detail.successful) {
      elt.reset();
      var input = $("#chat-text");
      if (input) input.focus();
    }
    if (elt.id === "play-form" || elt.id === "claim-form") {
      picked.hand = null;
      picked.table = [];
    }
  });

  function start() {
    absoluteInvite();
    scrollChat();
    render();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
