/* Escoba del 15, the page script: Web Push for this device's notices
 * (notices.js): this browser's subscription, the server's key, and the list
 * of tables this browser asked notices of, kept in the Cache API under a
 * key that is no page, where the service worker (sw.js) reads it too.
 */

import { msg } from "./state.js";

var PUSH_STORE = "escoba-push-v1";
var PUSH_STATE = "/push/state.json";
var PUSH_TABLES_MAX = 200;

function emptyPushState() {
  return { endpoint: null, tables: [] };
}

export function readPushState() {
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

export function writePushState(state) {
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

export function serverKey() {
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
export function postJson(path, body) {
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

export function pushPath(invite, rest) {
  return "/t/" + encodeURIComponent(invite) + "/push" + (rest || "");
}

// The table or this browser's seat at it is no more: forget it (sw.js too).
function seatGone(status) {
  return status === 403 || status === 404 || status === 410;
}

// This browser's subscription, made for the server's current key.
export function subscription(registration, key, create) {
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
export function resend(state, sub, skip) {
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
