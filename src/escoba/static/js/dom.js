/* Escoba del 15, the page script: finding things on the page (the cards by
 * their notation, a card's groups that make 15 and its value) and a few
 * small helpers the parts share.
 */

export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function $(selector, root) {
  return (root || document).querySelector(selector);
}

export function $all(selector, root) {
  return Array.prototype.slice.call((root || document).querySelectorAll(selector));
}

export function handCard(notation) {
  return $('.hand-card[data-card="' + notation + '"]');
}

export function tableCard(notation) {
  return $('.table-card[data-card="' + notation + '"]');
}

export function groupsOf(el) {
  try {
    return JSON.parse(el.getAttribute("data-groups") || "[]");
  } catch (e) {
    return [];
  }
}

export function valueOf(notation) {
  var el = tableCard(notation) || handCard(notation);
  return el ? parseInt(el.getAttribute("data-value"), 10) : 0;
}

export function sameSet(a, b) {
  if (a.length !== b.length) return false;
  var sa = a.slice().sort();
  var sb = b.slice().sort();
  return sa.every(function (x, i) {
    return x === sb[i];
  });
}

export function capital(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
