"""Sending e-mail: the outbox, the SMTP conversation and the mail loop.

Nothing talks to an SMTP server on a player's request or in a command: an
e-mail is a row of `email_outbox`, written in the transaction that decides
it (a saved address, a notice, a digest), and the mail loop of any process
claims due rows (a conditional UPDATE, so two processes never send one row)
and sends them with smtplib, on its own thread, with a timeout. A server that
is down or refuses for now puts the row off (1, 5, 30 minutes, 2 h, 12 h);
a permanent refusal, or the last try, gives it up, logged. Sent rows stay two
days: what an address got is counted there (`Outbox.count`).
"""

from __future__ import annotations

import logging
import smtplib
import ssl
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid, parseaddr
from typing import Any, Final, cast

from sqlalchemy import Connection, Table, delete, func, insert, or_, select, update

from escoba.i18n import HTML_LANG
from escoba.web.base import metrics
from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.models import EmailOutboxRow
from escoba.web.base.settings import Settings
from escoba.web.notices.email.address import ascii_address, ascii_domain

log = logging.getLogger("escoba.mail")

_O = cast(Table, EmailOutboxRow.__table__)
#: How long after each failed try the next one comes; after the last, none.
RETRY_AFTER: Final = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=12),
)
MAX_ATTEMPTS: Final = len(RETRY_AFTER) + 1
KEEP_SENT: Final = timedelta(days=2)
BATCH: Final = 50  # rows one pass sends on one SMTP connection


class Outbox:
    """The e-mails to send, and what was sent (for the limits)."""

    def __init__(self, db: Database, clock: Clock, settings: Settings) -> None:
        self.db = db
        self.clock = clock
        self.settings = settings
        self.on_queued: Callable[[], None] | None = None  # the mail loop's wake-up
        #: why the SMTP server could not be reached on the last try (None:
        #: reached, or not tried yet): /health names the mail degraded
        self.smtp_trouble: str | None = None

    # ------------------------------------------------------------------
    # Writing

    def queue(self, conn: Connection, address: str, kind: str, message: EmailMessage) -> None:
        """An e-mail to send, in the caller's transaction (call `wake`
        once it has committed)."""
        now = self.clock.now()
        conn.execute(
            insert(_O).values(
                address=address,
                kind=kind,
                message=message.as_string(policy=SMTP),
                created_at=now,
                next_try_at=now,
                attempts=0,
            )
        )

    def wake(self) -> None:
        """Tell the mail loop that something waits (after the commit)."""
        if self.on_queued is not None:
            self.on_queued()

    def count(
        self, conn: Connection, address: str, within: timedelta, kind: str | None = None
    ) -> int:
        """E-mails to `address` made in the last `within` (sent or not)."""
        query = select(func.count()).where(
            _O.c.address == address, _O.c.created_at > self.clock.now() - within
        )
        if kind is not None:
            query = query.where(_O.c.kind == kind)
        return int(conn.scalar(query) or 0)

    def over_hourly(self, conn: Connection, address: str) -> bool:
        """`address` got its hour's worth of e-mails already."""
        limit = self.settings.smtp_per_address_hour
        return self.count(conn, address, timedelta(hours=1)) >= limit

    # ------------------------------------------------------------------
    # Sending

    def send_due(self) -> int:
        """Claim the rows that are due and send them on one SMTP
        connection; the number sent. Never raises: a failure is logged and
        the rows put off."""
        try:
            claimed = self._claim()
        except Exception:
            log.exception("the outbox could not be read")
            return 0
        if not claimed:
            return 0
        try:
            client = self._connect()
        except (OSError, smtplib.SMTPException) as err:
            log.warning("SMTP server unavailable", extra={"error": repr(err)})
            self.smtp_trouble = type(err).__name__
            for row in claimed:
                self._failed(row, permanent=False)
            return 0
        self.smtp_trouble = None
        sent = 0
        pending = list(claimed)
        try:
            while pending:
                row = pending.pop(0)
                try:
                    self._send(client, row)
                except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused) as err:
                    self._refused(row, err, _permanent(err))
                except smtplib.SMTPResponseException as err:
                    self._refused(row, err, 500 <= err.smtp_code < 600)
                except (OSError, smtplib.SMTPException) as err:
                    log.warning(
                        "e-mail not sent", extra={"outbox_id": row["id"], "error": repr(err)}
                    )
                    self._failed(row, permanent=False)
                    break  # the connection is gone: the rest waits for the next pass
                except Exception:  # a message that cannot be sent at all
                    log.exception("e-mail not sendable", extra={"outbox_id": row["id"]})
                    self._failed(row, permanent=True)
                else:
                    sent += 1
                    self._sent(row)
        finally:
            try:
                client.quit()
            except (OSError, smtplib.SMTPException):
                client.close()
        for row in pending:
            self._release(row)
        return sent

    def _refused(self, row: dict[str, Any], err: Exception, permanent: bool) -> None:
        log.warning("e-mail refused", extra={"outbox_id": row["id"], "error": repr(err)})
        self._failed(row, permanent)

    def _claim(self) -> list[dict[str, Any]]:
        """Due rows this process now holds: each moved past a lease long
        enough for the conversation, so no other process takes it meanwhile."""
        now = self.clock.now()
        lease = now + timedelta(seconds=self.settings.smtp_timeout_seconds * 6 + 60)
        due = (_O.c.sent_at.is_(None), _O.c.attempts < MAX_ATTEMPTS, _O.c.next_try_at <= now)
        claimed: list[dict[str, Any]] = []
        with self.db.write() as conn:
            ids = conn.scalars(select(_O.c.id).where(*due).order_by(_O.c.id).limit(BATCH)).all()
            for row_id in ids:
                done = conn.execute(
                    update(_O)
                    .where(_O.c.id == row_id, *due)
                    .values(attempts=_O.c.attempts + 1, next_try_at=lease)
                )
                if done.rowcount == 1:
                    row = conn.execute(
                        select(_O.c.id, _O.c.address, _O.c.message, _O.c.attempts).where(
                            _O.c.id == row_id
                        )
                    ).one()
                    claimed.append(dict(row._mapping))
        return claimed

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        host, port, timeout = s.smtp_host, s.smtp_port_in_force, s.smtp_timeout_seconds
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if s.smtp_security == "tls":
            client = smtplib.SMTP_SSL(host, port, timeout=timeout, context=context)
        else:
            client = smtplib.SMTP(host, port, timeout=timeout)
        try:
            if s.smtp_security == "starttls":
                client.starttls(context=context)
            if s.smtp_username:
                password = s.smtp_password.get_secret_value() if s.smtp_password else ""
                client.login(s.smtp_username, password)
        except BaseException:
            client.close()
            raise
        return client

    def _send(self, client: smtplib.SMTP, row: dict[str, Any]) -> None:
        sender = ascii_address(parseaddr(self.settings.smtp_from)[1])
        client.sendmail(sender, [ascii_address(row["address"])], row["message"].encode("ascii"))

    def _sent(self, row: dict[str, Any]) -> None:
        metrics.mail_sent(ok=True)
        with self.db.write() as conn:
            conn.execute(update(_O).where(_O.c.id == row["id"]).values(sent_at=self.clock.now()))

    def _failed(self, row: dict[str, Any], permanent: bool) -> None:
        metrics.mail_sent(ok=False)
        attempts = int(row["attempts"])
        if permanent or attempts >= MAX_ATTEMPTS:
            log.error("e-mail given up", extra={"outbox_id": row["id"], "attempts": attempts})
            values: dict[str, Any] = {"attempts": MAX_ATTEMPTS}
        else:
            values = {"next_try_at": self.clock.now() + RETRY_AFTER[attempts - 1]}
        with self.db.write() as conn:
            conn.execute(update(_O).where(_O.c.id == row["id"]).values(**values))

    def _release(self, row: dict[str, Any]) -> None:
        """A claimed row the pass did not reach: due again, this try not counted."""
        with self.db.write() as conn:
            conn.execute(
                update(_O)
                .where(_O.c.id == row["id"])
                .values(attempts=_O.c.attempts - 1, next_try_at=self.clock.now())
            )

    def purge(self) -> int:
        """Forget rows older than two days that were sent or given up."""
        before = self.clock.now() - KEEP_SENT
        with self.db.write() as conn:
            done = conn.execute(
                delete(_O).where(
                    _O.c.created_at < before,
                    or_(_O.c.sent_at.is_not(None), _O.c.attempts >= MAX_ATTEMPTS),
                )
            )
        return int(done.rowcount or 0)


def _permanent(err: smtplib.SMTPRecipientsRefused | smtplib.SMTPSenderRefused) -> bool:
    if isinstance(err, smtplib.SMTPSenderRefused):
        return 500 <= err.smtp_code < 600
    codes = [code for code, _ in err.recipients.values()]
    return bool(codes) and all(500 <= code < 600 for code in codes)


def compose(
    settings: Settings,
    to: str,
    subject: str,
    text: str,
    lang: str,
    now: datetime,
    html: str | None = None,
    unsubscribe_url: str | None = None,
) -> EmailMessage:
    """One e-mail: plain text (and an HTML alternative), with its Date and
    Message-ID, marked as sent by a program (RFC 3834), and, for notices,
    the unsubscribe link as a header that mail programs show as a button and
    may follow with one POST (RFC 2369, RFC 8058)."""
    message = EmailMessage(policy=SMTP)
    message["From"] = settings.smtp_from
    message["To"] = ascii_address(to)
    message["Subject"] = subject
    message["Date"] = format_datetime(now)
    domain = parseaddr(settings.smtp_from)[1].rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid("escoba", domain=ascii_domain(domain))
    message["Auto-Submitted"] = "auto-generated"
    if unsubscribe_url is not None:
        message["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    if html is not None:
        message.add_alternative(html, subtype="html")
    message["Content-Language"] = HTML_LANG.get(lang, "es")  # (set_content clears Content-*)
    return message


class MailLoop:
    """The thread that sends: at once when something is queued (`wake`),
    and every `every` seconds it also runs `tick` (retries, held notices,
    the digest)."""

    def __init__(self, send: Callable[[], object], tick: Callable[[], object], every: float):
        self._send = send
        self._tick = tick
        self._every = every
        self._woken = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None and self._every > 0:
            self._thread = threading.Thread(target=self._run, name="escoba-mail", daemon=True)
            self._thread.start()

    def wake(self) -> None:
        self._woken.set()

    def stop(self) -> None:
        self._stop.set()
        self._woken.set()
        if self._thread is not None:
            # a conversation under way ends with the process (the row's lease
            # runs out and any process sends it again)
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        self._guarded(self._tick)
        while not self._stop.is_set():
            woken = self._woken.wait(self._every)
            if self._stop.is_set():
                break
            self._woken.clear()
            self._guarded(self._send if woken else self._tick)

    @staticmethod
    def _guarded(job: Callable[[], object]) -> None:
        try:
            job()
        except Exception:  # the database is away: the next pass tries again
            log.exception("mail loop pass failed")
