/* Escoba del 15, the page script: the chat: the log kept scrolled to its
 * end, not swapped when no line came, and the count of chat lines that came
 * while the chat was out of sight.
 */

import { $, $all } from "./dom.js";
import { msg } from "./state.js";

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

export function countChat() {
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

export function watchChat() {
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

export function scrollChat() {
  var log = $("#chat-log");
  if (log) log.scrollTop = log.scrollHeight;
}

/* ------------------------------------------------------------ the line's length */

// The longest chat line is the server's setting (the input's
// data-max-length). Without a script the input's maxlength cuts a longer
// paste; here it goes in whole, and the count under the line says how many
// letters are left, or that the line is too long and by how many: nothing
// is cut unsaid. A line over the limit is not sent; the refusal (the
// server's own sentence) is said beside the chat, as a refused line's is.
function chatInput() {
  return $("#chat-text");
}

function limitOf(input) {
  return Number(input.getAttribute("data-max-length")) || 0;
}

function lettersIn(text) {
  return Array.from(text.trim()).length; // as the server counts: code points
}

function counted(key, n) {
  var lang = document.documentElement.lang || "es";
  return msg(n === 1 ? key + "One" : key + "Many", { n: n.toLocaleString(lang) });
}

export function countLetters() {
  var input = chatInput();
  var note = $("#chat-count");
  if (!input || !note) return;
  var limit = limitOf(input);
  if (!limit) return;
  input.removeAttribute("maxlength");
  var left = limit - lettersIn(input.value);
  var over = left < 0;
  var text = over ? msg("chatTooLong") + " " + counted("chatOver", -left) : counted("chatLeft", left);
  if (note.textContent !== text) note.textContent = text;
  note.hidden = false;
  note.classList.toggle("is-over", over);
  if (over) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

// What the answer to a chat line says beside the chat (#chat-said, swapped
// out of band); a line sent clears it.
function sayChat(text) {
  var said = $("#chat-said");
  if (!said) return;
  said.textContent = "";
  if (!text) return;
  var p = document.createElement("p");
  p.className = "alert chat-error";
  p.setAttribute("role", "alert");
  p.textContent = text;
  said.appendChild(p);
}

export function chatRefused() {
  return !!$("#chat-said .chat-error");
}

document.addEventListener("input", function (event) {
  if (event.target && event.target.id === "chat-text") countLetters();
});

// a line over the limit is not sent: said beside the chat, the focus kept
// in the line to shorten it
document.addEventListener("htmx:confirm", function (event) {
  var form = event.detail && event.detail.elt;
  var input = chatInput();
  if (!form || !form.classList || !form.classList.contains("chat-form") || !input) return;
  var limit = limitOf(input);
  if (limit && lettersIn(input.value) > limit) {
    event.preventDefault();
    sayChat(msg("chatTooLong"));
    input.focus();
  }
});
