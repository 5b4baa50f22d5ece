/* Escoba del 15, the page script: «¡Tu turno!» in the tab title and
 * favicon, and AVISARME (notices by Web Push through the service worker,
 * sw.js and push.js, or from the tab while it is open in the background).
 */

import { $ } from "./dom.js";
import { msg } from "./state.js";
import { readPushState, writePushState, serverKey, postJson, pushPath, subscription, resend } from "./push.js";

/* ------------------------------------------------------------ your turn */

var wasMyTurn = null;

export function syncTurn() {
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

export function startNotices() {
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

export function toggleNotifications(button) {
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
