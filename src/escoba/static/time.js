/* Escoba del 15: time on the table page.
 *
 * The server writes every moment as a <time datetime="…Z"> with a reading
 * that is right when the page is made (templating.moment_tag, clock_tag);
 * this script keeps them right while the page stays open, in the page's
 * language (<html lang>) and the browser's own time zone:
 *
 * - <time data-ago>: «hace 5 h», counting up (Intl.RelativeTimeFormat, units
 *   chosen as Babel's format_timedelta chooses them on the server);
 * - <time data-countdown>: «dentro de 8 h», counting down;
 * - <time data-clock>: a date and time (chat lines, the moment a warning
 *   names), the time alone when it is today (Intl.DateTimeFormat).
 *
 * When a countdown on the board comes to its end, or the moment the board
 * names as its next change by time alone (data-next-change: a warning that
 * begins or grows), the board is fetched again (the `time:due` event its
 * hx-trigger listens to): TERMINAR POR AUSENCIA, a warning or the expired
 * table shows without a reload, whether or not a live event comes.
 *
 * Moments are read against the server's clock: the board says what time the
 * server had (data-now), so a browser whose clock is off still counts right.
 * Everything is done again every 30 s and after every HTMX swap.
 */
(function () {
  "use strict";

  var TICK_MS = 30000;
  // TERMINAR POR AUSENCIA is possible strictly after its moment, and moments
  // are written to the second: ask a bit later
  var DUE_MARGIN_MS = 1500;
  // a board fetched at its moment that still counts down (the server's clock
  // a little behind) is fetched again after these waits, then every minute
  var RETRY_MS = [2000, 5000, 15000, 60000];
  var MAX_WAIT_MS = 3600000; // long timers are set again (sleep, timer limits)
  var UNITS = [
    ["year", 31536000],
    ["month", 2592000],
    ["week", 604800],
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
    ["second", 1],
  ];

  var offset = 0; // the server's clock minus this browser's, in ms
  var dueTimer = null;
  var fetchesFor = {}; // countdown moment (ms) → board fetches made for it
  var formats = {};

  function lang() {
    return document.documentElement.getAttribute("lang") || "es";
  }

  function now() {
    return Date.now() + offset;
  }

  function format(kind, options) {
    var key = kind + JSON.stringify(options) + lang();
    if (!formats[key]) {
      try {
        formats[key] =
          kind === "relative"
            ? new Intl.RelativeTimeFormat(lang(), options)
            : new Intl.DateTimeFormat(lang(), options);
      } catch (e) {
        formats[key] = null; // an old browser: the server's words stay
      }
    }
    return formats[key];
  }

  // «hace 5 h» / «dentro de 8 h»: the largest unit that counts at least 1.5
  // of itself (Babel's threshold), seconds otherwise.
  function relative(ms) {
    var fmt = format("relative", { numeric: "always", style: "short" });
    if (!fmt) return null;
    var seconds = Math.abs(ms) / 1000;
    var sign = ms < 0 ? -1 : 1;
    for (var i = 0; i < UNITS.length; i++) {
      var value = seconds / UNITS[i][1];
      if (value >= 1.5 || UNITS[i][0] === "second") {
        return fmt.format(sign * Math.max(ms === 0 ? 0 : 1, Math.round(value)), UNITS[i][0]);
      }
    }
    return null;
  }

  function sameDay(a, b) {
    return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  }

  // A date and time in this browser's time zone: the time alone today.
  function clock(date, full) {
    var today = new Date(now());
    var options = { hour: "numeric", minute: "2-digit" };
    if (full || !sameDay(date, today)) {
      options.day = "numeric";
      options.month = "short";
      if (date.getFullYear() !== today.getFullYear()) options.year = "numeric";
    }
    var fmt = format("clock", options);
    return fmt ? fmt.format(date) : null;
  }

  function moment(el) {
    var at = Date.parse(el.getAttribute("datetime") || "");
    return isNaN(at) ? null : at;
  }

  function write(el, text) {
    if (text && el.textContent !== text) el.textContent = text;
  }

  function each(selector, root, fn) {
    Array.prototype.forEach.call((root || document).querySelectorAll(selector), fn);
  }

  function readServerClock() {
    var board = document.querySelector("#board .board[data-now]");
    var at = board ? Date.parse(board.getAttribute("data-now")) : NaN;
    if (!isNaN(at)) offset = at - Date.now();
  }

  function update() {
    var t = now();
    each("time[data-ago], time[data-countdown]", document, function (el) {
      var at = moment(el);
      if (at === null) return;
      // the ticking is not news: never read out from a live region
      if (el.getAttribute("aria-live") !== "off") el.setAttribute("aria-live", "off");
      var ms = el.hasAttribute("data-ago") ? Math.min(at - t, -1000) : Math.max(at - t, 0);
      write(el, relative(ms));
      var title = clock(new Date(at), true);
      if (title && el.getAttribute("title") !== title) el.setAttribute("title", title);
    });
    each("time[data-clock]", document, function (el) {
      var at = moment(el);
      if (at !== null) write(el, clock(new Date(at), false));
    });
    scheduleDue();
  }

  // The board's next change by time alone (a countdown's end, or the moment
  // it names), and a timer for it.
  function scheduleDue() {
    window.clearTimeout(dueTimer);
    dueTimer = null;
    var board = document.getElementById("board");
    if (!board) return;
    var next = null;
    var consider = function (at) {
      if (!isNaN(at) && at !== null && (next === null || at < next)) next = at;
    };
    each("time[data-countdown]", board, function (el) {
      consider(moment(el));
    });
    each(".board[data-next-change]", board, function (el) {
      consider(Date.parse(el.getAttribute("data-next-change")));
    });
    if (next === null) return;
    var wait = next + DUE_MARGIN_MS - now();
    var made = fetchesFor[next] || 0;
    if (made > 0) wait = Math.max(wait, RETRY_MS[Math.min(made, RETRY_MS.length) - 1]);
    var at = next;
    dueTimer = window.setTimeout(function () {
      due(at, made);
    }, Math.min(Math.max(wait, 0), MAX_WAIT_MS));
  }

  function due(at, made) {
    if (now() < at + DUE_MARGIN_MS) {
      scheduleDue(); // a long wait cut short: not yet
      return;
    }
    var board = document.getElementById("board");
    if (!board || !window.htmx) return;
    fetchesFor[at] = made + 1;
    window.htmx.trigger(board, "time:due");
  }

  function afterSwap() {
    readServerClock();
    update();
  }

  document.addEventListener("htmx:afterSwap", afterSwap);
  document.addEventListener("htmx:oobAfterSwap", afterSwap);
  // a failed fetch leaves the countdown: try again later, not at once
  document.addEventListener("htmx:responseError", scheduleDue);
  document.addEventListener("htmx:sendError", scheduleDue);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) update();
  });

  function start() {
    readServerClock();
    update();
    window.setInterval(update, TICK_MS);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
