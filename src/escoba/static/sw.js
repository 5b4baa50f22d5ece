/* Escoba del 15: the service worker, served at /sw.js so that its scope is
 * the whole site (web/install.py).
 *
 * It does three things and nothing else:
 * - push: shows the server's notice (Web Push; the payload is JSON
 *   {title, body, url, tag, kind}, already in the seat's language and never
 *   naming a card), unless a tab of that table is in front of the player;
 * - notificationclick: focuses a tab of that table, or opens one;
 * - pushsubscriptionchange: the push service replaced this browser's
 *   subscription: subscribe again and tell the server, for every table this
 *   browser asked notices of.
 *
 * No fetch handler and no offline copies: the game is live, every page comes
 * from the server. The one thing stored is the list of tables this browser
 * wants notices of (and its subscription's endpoint), in the Cache API under
 * a synthetic key that is never a page (STORE/STATE_KEY), because the page
 * (escoba.js, which keeps it) and this worker can both read it there.
 */
/* global self, clients, caches */
(function () {
  "use strict";

  var STORE = "escoba-push-v1";
  var STATE_KEY = "/push/state.json";
  var ICON = "/static/icons/icon-192.png";
  var BADGE = "/static/icons/badge-96.png";

  self.addEventListener("install", function () {
    self.skipWaiting();
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(self.clients.claim());
  });

  /** A same-origin URL of the payload's `url` (anything else: the home page). */
  function siteUrl(url) {
    var target;
    try {
      target = new URL(url || "/", self.location.origin);
    } catch (e) {
      target = new URL("/", self.location.origin);
    }
    return target.origin === self.location.origin ? target : new URL("/", self.location.origin);
  }

  function samePath(clientUrl, target) {
    try {
      return new URL(clientUrl).pathname === target.pathname;
    } catch (e) {
      return false;
    }
  }

  function windows() {
    return self.clients.matchAll({ type: "window", includeUncontrolled: true });
  }

  self.addEventListener("push", function (event) {
    var notice = {};
    try {
      notice = event.data ? event.data.json() : {};
    } catch (e) {
      notice = {};
    }
    var target = siteUrl(notice.url);
    var options = {
      body: notice.body || "",
      tag: notice.tag || "escoba",
      renotify: true,
      icon: ICON,
      badge: BADGE,
      data: { url: target.pathname + target.search, kind: notice.kind || null },
    };
    if (notice.lang) options.lang = notice.lang;
    event.waitUntil(
      windows().then(function (list) {
        // the player is looking at that very table: the page shows it all
        var looking = list.some(function (c) {
          return samePath(c.url, target) && c.focused && c.visibilityState === "visible";
        });
        if (looking) return undefined;
        return self.registration.showNotification(notice.title || "Escoba", options);
      })
    );
  });

  self.addEventListener("notificationclick", function (event) {
    event.notification.close();
    var data = event.notification.data || {};
    var target = siteUrl(data.url);
    event.waitUntil(
      windows().then(function (list) {
        var open = list.filter(function (c) {
          return samePath(c.url, target);
        });
        if (open.length && "focus" in open[0]) {
          var tab = open[0];
          return tab.focus().then(function (focused) {
            // the page puts the keyboard focus on what the notice was about
            (focused || tab).postMessage({ type: "escoba-notice-click", kind: data.kind || null });
          });
        }
        return self.clients.openWindow(target.href);
      })
    );
  });

  /* ------------------------------------------------------------ resubscribing */

  function readState() {
    return caches
      .open(STORE)
      .then(function (cache) {
        return cache.match(STATE_KEY);
      })
      .then(function (response) {
        return response ? response.json() : { endpoint: null, tables: [] };
      })
      .catch(function () {
        return { endpoint: null, tables: [] };
      });
  }

  function writeState(state) {
    return caches.open(STORE).then(function (cache) {
      var body = JSON.stringify(state);
      return cache.put(STATE_KEY, new Response(body, { headers: { "Content-Type": "application/json" } }));
    });
  }

  function base64UrlBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = self.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function serverKey() {
    return fetch("/push/key", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (!r.ok) throw new Error("no push key");
        return r.json();
      })
      .then(function (body) {
        return base64UrlBytes(body.key);
      });
  }

  /** The table or this browser's seat at it is no more: forget it. Any other
   * refusal (busy, rate-limited) is tried again at the next change. */
  function seatGone(status) {
    return status === 403 || status === 404 || status === 410;
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  self.addEventListener("pushsubscriptionchange", function (event) {
    event.waitUntil(
      readState().then(function (state) {
        if (!state.tables || !state.tables.length) return undefined;
        var fresh = event.newSubscription
          ? Promise.resolve(event.newSubscription)
          : serverKey().then(function (key) {
              return self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
            });
        return fresh.then(function (subscription) {
          var json = subscription.toJSON();
          return Promise.all(
            state.tables.map(function (invite) {
              return post("/t/" + encodeURIComponent(invite) + "/push", json).then(
                function (r) {
                  return !seatGone(r.status);
                },
                function () {
                  return true;
                }
              );
            })
          ).then(function (keep) {
            var tables = state.tables.filter(function (invite, i) {
              return keep[i];
            });
            return writeState({ endpoint: subscription.endpoint, tables: tables });
          });
        });
      })
    );
  });
})();
