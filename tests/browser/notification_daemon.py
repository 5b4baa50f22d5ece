"""A desktop's notification server (org.freedesktop.Notifications) for the
browser tests: Chromium on Linux shows a web page's notifications through
it, and it tells Chromium when the person clicks one. Run by
tests/browser/notifications.py with Debian's python3 and its GObject
bindings (python3-gi), on a private session bus:

- each notification Chromium shows is printed as a JSON line on stdout
  (`{"event": "notify", "id", "summary", "body", ...}`), each closing too;
- a line `click ID` on stdin clicks that notification: the signal
  `ActionInvoked(ID, "default")` goes to the Chromium that showed it, which
  dispatches a real `notificationclick` to the page's service worker.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

from gi.repository import Gio, GLib  # type: ignore[import-not-found]

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
INTERFACE = f"""
<node>
  <interface name="{NAME}">
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{{sv}}" direction="in"/><arg type="i" direction="in"/>
      <arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  </interface>
</node>
"""


class Server:
    def __init__(self, connection: Gio.DBusConnection) -> None:
        self.connection = connection
        self.last_id = 0
        self.senders: dict[int, str] = {}

    def call(
        self,
        connection: Gio.DBusConnection,
        sender: str,
        path: str,
        interface: str,
        method: str,
        params: GLib.Variant,
        invocation: Gio.DBusMethodInvocation,
    ) -> None:
        args: Any = params.unpack()
        if method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["actions", "body", "persistence"],)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("escoba-tests", "escoba", "1", "1.2")))
        elif method == "Notify":
            app, replaces, _icon, summary, body, actions, _hints, _timeout = args
            if replaces:
                nid = replaces
            else:
                self.last_id += 1  # unique across browsers: each only knows its own
                nid = self.last_id
            self.senders[nid] = sender
            say(event="notify", id=nid, app=app, summary=summary, body=body, actions=actions)
            invocation.return_value(GLib.Variant("(u)", (nid,)))
        elif method == "CloseNotification":
            (nid,) = args
            say(event="close", id=nid)
            self.signal(nid, "NotificationClosed", GLib.Variant("(uu)", (nid, 3)))
            invocation.return_value(None)

    def signal(self, nid: int, name: str, value: GLib.Variant) -> None:
        sender = self.senders.get(nid)
        if sender is not None:
            self.connection.emit_signal(sender, PATH, NAME, name, value)

    def click(self, nid: int) -> bool:
        self.signal(nid, "ActionInvoked", GLib.Variant("(us)", (nid, "default")))
        say(event="clicked", id=nid)
        return False


def say(**event: object) -> None:
    print(json.dumps(event), flush=True)


def main() -> None:
    loop = GLib.MainLoop()
    connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    server = Server(connection)
    info = Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces[0]
    connection.register_object(PATH, info, server.call, None, None)

    def acquired(*_: object) -> None:
        say(event="ready")

    def lost(*_: object) -> None:
        say(event="lost")
        loop.quit()

    Gio.bus_own_name_on_connection(connection, NAME, Gio.BusNameOwnerFlags.NONE, acquired, lost)

    def commands() -> None:
        for line in sys.stdin:
            verb, _, arg = line.strip().partition(" ")
            if verb == "click":
                GLib.idle_add(server.click, int(arg))
        GLib.idle_add(loop.quit)  # stdin closed: the test is over

    threading.Thread(target=commands, daemon=True).start()
    loop.run()


if __name__ == "__main__":
    main()
