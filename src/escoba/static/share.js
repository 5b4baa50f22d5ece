/* Escoba del 15: sharing a table's invite link.
 *
 * A button with data-share-url (and data-share-title, data-share-text) opens
 * the system's share sheet where the browser has the Web Share API (phones,
 * mostly): the button then reads COMPARTIR (data-share-label). Elsewhere, or
 * when sharing fails, it copies the link to the clipboard and says
 * «¡Copiado!» (data-copied) in the status line that describes it; when the
 * clipboard is refused too, the link's text (data-share-input) is selected
 * for a manual copy and the page says so (data-copy-refused).
 *
 * Document-level listeners only, so a board swapped in by HTMX keeps working.
 */
(function () {
  "use strict";

  var SHOWN_MS = 2500; // how long «¡Copiado!» stays

  function absolute(url) {
    try {
      return new URL(url, window.location.href).href;
    } catch (e) {
      return url;
    }
  }

  function shareData(button) {
    return {
      title: button.getAttribute("data-share-title") || document.title,
      text: button.getAttribute("data-share-text") || "",
      url: absolute(button.getAttribute("data-share-url") || window.location.href),
    };
  }

  function canShare(data) {
    if (typeof navigator.share !== "function") return false;
    if (typeof navigator.canShare === "function") {
      try {
        return navigator.canShare(data);
      } catch (e) {
        return false;
      }
    }
    return true;
  }

  var statusTimer = null;

  function say(button, text) {
    var id = button.getAttribute("aria-describedby");
    var status = id ? document.getElementById(id) : null;
    if (!status) return;
    status.textContent = text;
    window.clearTimeout(statusTimer);
    if (text) {
      statusTimer = window.setTimeout(function () {
        status.textContent = "";
      }, SHOWN_MS);
    }
  }

  function selectLink(button) {
    var input = document.querySelector(button.getAttribute("data-share-input") || "");
    if (input && typeof input.select === "function") {
      input.focus();
      input.select();
    }
  }

  function refused(button) {
    selectLink(button);
    var text = button.getAttribute("data-copy-refused") || "";
    var id = button.getAttribute("aria-describedby");
    var status = id ? document.getElementById(id) : null;
    window.clearTimeout(statusTimer);
    if (status) status.textContent = text; // stays until the link is copied
  }

  function copy(button, url) {
    var done = function () {
      say(button, button.getAttribute("data-copied") || "");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () {
        refused(button);
      });
      return;
    }
    selectLink(button);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (e) {
      copied = false;
    }
    if (copied) done();
    else refused(button);
  }

  function share(button) {
    var data = shareData(button);
    if (!canShare(data)) {
      copy(button, data.url);
      return;
    }
    navigator.share(data).catch(function (err) {
      // the person closed the sheet: nothing to do; any other failure copies
      if (!err || err.name !== "AbortError") copy(button, data.url);
    });
  }

  function label() {
    var buttons = document.querySelectorAll("button[data-share-url]");
    Array.prototype.forEach.call(buttons, function (button) {
      var name = button.getAttribute("data-share-label");
      if (name && canShare(shareData(button))) button.textContent = name;
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var button = target.closest("button[data-share-url]");
    if (!button) return;
    event.preventDefault();
    share(button);
  });

  document.addEventListener("htmx:afterSwap", label);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", label);
  } else {
    label();
  }
})();
