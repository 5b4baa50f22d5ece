/* Escoba del 15, the page script: what its parts share (no window globals).
 *
 * The page's words (body[data-messages], in its language), what the player
 * picked, and two flags: a play is in flight (nothing else is sent until
 * its board comes), and CONFIRMAR is sending the play (confirm.js), so the
 * click handler (play.js) lets it go.
 */

var messages = {};
export var state = { inFlight: false, confirmed: false };

// What the player picked, by card notation; survives a board refresh.
export var picked = { hand: null, table: [] };

export function msg(key, params) {
  var text = messages[key] || key;
  Object.keys(params || {}).forEach(function (k) {
    text = text.split("{" + k + "}").join(String(params[k]));
  });
  return text;
}

// The words the page gives (read once, at start).
export function readWords() {
  try {
    messages = JSON.parse(document.body.getAttribute("data-messages") || "{}");
  } catch (e) {
    messages = {};
  }
}
