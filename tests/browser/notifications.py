"""Notifications a person can click, for the browser tests.

Headless Chromium shows no notification anyone could click, and a
`notificationclick` dispatched by script is not one: the browser refuses
such an event's `clients.openWindow` and `WindowClient.focus` («Not allowed
to open a window»). So the tests give Chromium what a Linux desktop gives it:
a private D-Bus session bus (`dbus-daemon`) with a notification server on it
(notification_daemon.py, with Debian's python3-gi). Chromium shows the
service worker's notifications there, and a click there is a real one.

Chromium routes a click to the browser profile that showed the
notification, which must be one it can load by itself: a persistent context
(`launch_persistent_context`), not the incognito-like `new_context`.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DAEMON = Path(__file__).with_name("notification_daemon.py")
SYSTEM_PYTHON = "/usr/bin/python3"
#: A session bus with no services to start (Chromium asks for an
#: accessibility bus, which must not linger after the test).
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def missing() -> str:
    """Why clickable notifications cannot be had here, or ""."""
    if shutil.which("dbus-daemon") is None:
        return "no dbus-daemon: install Debian's dbus (dev.sh does, as root)"
    probe = subprocess.run(
        [SYSTEM_PYTHON, "-c", "from gi.repository import Gio"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        return "no GObject bindings for /usr/bin/python3: install python3-gi (dev.sh does)"
    return ""


@dataclass(frozen=True)
class Shown:
    """A notification as the desktop got it. Chromium puts the site's
    origin above the notification's body: `body` ends with the page's."""

    id: int
    summary: str
    body: str


class NotificationCenter:
    """The bus and the notification server; `env` is what a Chromium needs
    to use them."""

    def __init__(self, tmp: Path) -> None:
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        config = tmp / "bus.conf"
        (tmp / "bus").mkdir(exist_ok=True)
        config.write_text(BUS_CONFIG.format(dir=tmp / "bus"), encoding="utf-8")
        self.bus = subprocess.Popen(
            ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.bus.stdout is not None
        self.address = self.bus.stdout.readline().strip()
        self.env = {**os.environ, "DBUS_SESSION_BUS_ADDRESS": self.address}
        self.daemon = subprocess.Popen(
            [SYSTEM_PYTHON, str(DAEMON)],
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        self._next(lambda e: e["event"] == "ready", 10)

    def _read(self) -> None:
        assert self.daemon.stdout is not None
        for line in self.daemon.stdout:
            self.events.put(json.loads(line))

    def _next(self, wanted: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
        for event in self.seen:
            if wanted(event):
                self.seen.remove(event)
                return event
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such notification event in {timeout} s: {self.seen}")
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if wanted(event):
                return event
            self.seen.append(event)

    def wait_shown(self, summary: str, timeout: float = 15) -> Shown:
        """The next notification shown with that title."""
        event = self._next(lambda e: e["event"] == "notify" and e["summary"] == summary, timeout)
        return Shown(event["id"], event["summary"], event["body"])

    def wait_closed(self, shown: Shown, timeout: float = 15) -> None:
        self._next(lambda e: e["event"] == "close" and e["id"] == shown.id, timeout)

    def click(self, shown: Shown) -> None:
        assert self.daemon.stdin is not None
        self.daemon.stdin.write(f"click {shown.id}\n")
        self.daemon.stdin.flush()
        self._next(lambda e: e["event"] == "clicked" and e["id"] == shown.id, 10)

    def stop(self) -> None:
        for process in (self.daemon, self.bus):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if self.daemon.stdin is not None:
            self.daemon.stdin.close()
