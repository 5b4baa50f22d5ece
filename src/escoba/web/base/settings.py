"""Settings, from the environment only (every one documented, with its
default, in docs/settings.md; a test keeps the two in step)."""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parseaddr
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from escoba.web.base.metrics_access import MetricsAccess


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ESCOBA_", extra="ignore")

    database_url: str = Field(
        default="sqlite:///escoba.db",
        validation_alias=AliasChoices("DATABASE_URL", "ESCOBA_DATABASE_URL"),
        description="SQLAlchemy URL; postgresql:// URLs use psycopg 3.",
    )
    sqlite_synchronous: str = Field(
        default="FULL",
        description="SQLite's synchronous pragma in WAL mode: FULL or NORMAL (docs/deploy.md).",
    )
    sqlite_busy_seconds: float = Field(
        default=30.0,
        gt=0,
        description="SQLite: how long a write waits for another process's lock before "
        "the command is refused (503 busy).",
    )
    secret_key: str | None = Field(
        default=None,
        description="Signs device cookies. Unset: a random key kept in the database.",
    )
    robot_delay: float = Field(default=1.2, description="Seconds a robot waits before playing.")
    robot_inline: bool = Field(
        default=False,
        description="Robots play within the request that gave them the turn (tests).",
    )
    robot_sweep_seconds: float = Field(
        default=15.0,
        description="How often each process looks for robots left on turn (0: never).",
    )
    robot_processes: int = Field(
        default=1,
        description="Worker processes the robots think in, off the app's event loop "
        "(0: one thread of the app's own process).",
    )
    analysis_worlds: int = Field(
        default=512,
        ge=2,
        description="The most worlds Luna weighs a decision of a round's analysis in "
        "(it stops sooner once the figures are clear; fewer: quicker, noisier).",
    )
    analyses: Literal["web", "worker"] = Field(
        default="web",
        description="Who runs the rounds' analyses: each web process, in processes of "
        "its own (web), or `escoba worker` processes alone (worker).",
    )
    analysis_processes: int = Field(
        default=1,
        ge=0,
        description="Processes a web process (ESCOBA_ANALYSES=web) or an `escoba worker` "
        "runs analyses in, never the robots' (0: a thread of the process: tests).",
    )
    analysis_nice: int = Field(
        default=10,
        ge=0,
        le=19,
        description="The niceness of the analyses' processes: the robots and the "
        "requests get the CPU first.",
    )
    analysis_poll_seconds: float = Field(
        default=2.0,
        gt=0,
        description="How often an idle analyses' runner looks at the queue for rounds "
        "queued by other processes.",
    )
    analysis_stale_seconds: float = Field(
        default=60.0,
        gt=0,
        description="A running analysis not written for this long lost its process: "
        "another runner takes it up.",
    )
    worker_threads: int = Field(
        default=4,
        description="Threads per process for the few routes off the event loop (health, files).",
    )
    absence_hours: float = 48.0
    expiry_days: float = 7.0
    notice_sweep_seconds: float = Field(
        default=60.0,
        description="How often each process looks for the notices time brings (0: never).",
    )
    notice_warnings: str = Field(
        default="0.5,0.8333",
        description="When the player on turn is warned, as fractions of absence_hours.",
    )
    notice_expiry_hours: float = Field(
        default=24.0,
        description="How long before a table expires its seats are told (0: never).",
    )
    watching_seconds: float = Field(
        default=60.0,
        description="How long an open table page counts as watching unless renewed.",
    )
    chat_max_length: int = 300
    chat_burst: int = 5
    chat_window_seconds: float = 10.0
    name_max_length: int = 24
    secure_cookies: bool = Field(
        default=False,
        description="Mark cookies Secure always (they are also marked on HTTPS requests).",
    )
    base_url: str = Field(default="", description="Public origin for invite links, if proxied.")
    live_backend: str = Field(
        default="auto",
        description="How live updates cross processes: auto, local, sqlite, postgres or redis.",
    )
    redis_url: str = Field(default="", description="Redis URL (live_backend=redis).")
    metrics: str = Field(
        default="off",
        description="Who may read /metrics: off, client networks (127.0.0.1/32,10.0.0.0/8) "
        "or token:SECRET (a bearer token).",
    )
    live_check_seconds: float = Field(
        default=10.0,
        ge=0,
        description="How often each process reads the versions of the tables its live "
        "streams follow and sends what they missed (0: never; a bridge's reconnection "
        "still does).",
    )
    rate_limits: bool = Field(default=True, description="Refuse floods with 429.")
    rate_window_seconds: int = Field(default=60, description="The window rate limits count in.")
    rate_join_per_ip: int = Field(default=30, description="Tables made or joined per IP.")
    rate_act_per_ip: int = Field(default=600, description="Commands per client IP.")
    rate_act_per_seat: int = Field(default=120, description="Commands per seat.")
    rate_transfer_per_ip: int = Field(
        default=10, description="Codes tried at «Seguir en otro dispositivo» per client IP."
    )
    transfer_code_minutes: float = Field(
        default=10.0, description="How long a «Seguir en otro dispositivo» code is valid."
    )
    my_tables_finished_days: float = Field(
        default=30.0, description="How long a finished table stays in «Mis mesas»."
    )
    max_body_bytes: int = Field(
        default=65536,
        description="Largest request body taken; a larger one is refused with 413 unread.",
    )
    max_header_bytes: int = Field(
        default=16384,
        description="Largest request head (request line and headers) taken; more: 431.",
    )
    live_streams_per_ip: int = Field(
        default=20,
        description="Live streams (open table pages) one client IP may hold per process (0: any).",
    )
    request_timeout_seconds: float = Field(
        default=10.0,
        description="Time a client has to send a request's head, and then its body.",
    )
    trusted_origins: str = Field(
        default="",
        description="Other origins allowed to post forms (comma-separated).",
    )
    vapid_private_key: str | None = Field(
        default=None,
        description="Web Push's VAPID key (base64url raw P-256, or PEM). "
        "Unset: one made once and kept in the database.",
    )
    vapid_subject: str = Field(
        default="",
        description="The contact push services see (mailto: or https:). "
        "Empty: ESCOBA_BASE_URL if it is https, else mailto:escoba@localhost.",
    )
    push_allow_private: bool = Field(
        default=False,
        description="Tests only: take http:// push endpoints on private or loopback addresses.",
    )
    push_workers: int = Field(
        default=4,
        description="Threads that send Web Push requests (more only contend for the GIL).",
    )
    push_processes: int = Field(
        default=1,
        description="1: pushes are written, encrypted and sent by a worker process of "
        "their own; 0: by threads of the app's process (tests).",
    )
    push_connect_timeout: float = Field(
        default=5.0, description="Seconds to connect to a push service."
    )
    push_read_timeout: float = Field(
        default=10.0, description="Seconds a push service has to answer once connected."
    )
    push_tries: int = Field(
        default=4, description="Tries of one push (timeouts, connection errors, 429, 5xx)."
    )
    push_retry_seconds: float = Field(
        default=2.0, description="First wait before a retry; it doubles each try (with jitter)."
    )
    push_retry_max_seconds: float = Field(
        default=120.0, description="Longest wait before a retry (Retry-After included)."
    )
    push_ttl_seconds: int = Field(
        default=86400, description="How long a push service keeps a notice for an offline device."
    )
    push_max_failures: int = Field(
        default=5, description="Consecutive failed pushes after which a subscription is dropped."
    )
    log_format: str = Field(default="json", description="json (one object a line) or text.")
    log_level: str = Field(default="INFO", description="Python logging level.")
    # -- E-mail (docs/deploy.md «E-mail»): none at all while smtp_host is unset
    smtp_host: str = Field(default="", description="SMTP server for notices; unset: no e-mail.")
    smtp_port: int | None = Field(
        default=None, description="Its port (unset: 587 for starttls, 465 for tls, 25 for none)."
    )
    smtp_username: str = Field(default="", description="SMTP login (empty: none).")
    smtp_password: SecretStr | None = Field(default=None, description="SMTP password.")
    smtp_security: str = Field(
        default="starttls", description="starttls, tls (implicit TLS) or none (a local relay)."
    )
    smtp_from: str = Field(default="", description="The From address (required with a host).")
    smtp_timeout_seconds: float = Field(
        default=10.0, description="How long one SMTP conversation may wait on the server."
    )
    smtp_digest_hour: int = Field(
        default=8, ge=0, le=23, description="The hour (UTC) the daily digest goes out."
    )
    smtp_quiet_minutes: float = Field(
        default=30.0, description="At most one notice e-mail per seat within this many minutes."
    )
    smtp_per_address_hour: int = Field(
        default=20, description="At most this many e-mails to one address per hour."
    )
    smtp_confirmations_per_day: int = Field(
        default=3, description="At most this many confirmation e-mails to one address a day."
    )
    smtp_poll_seconds: float = Field(
        default=60.0,
        description="How often the mail loop retries, releases held notices and looks for "
        "the digest's hour (0: no loop; tests and tools).",
    )

    @model_validator(mode="after")
    def _smtp_complete(self) -> Settings:
        if self.smtp_security not in ("starttls", "tls", "none"):
            raise ValueError("ESCOBA_SMTP_SECURITY is starttls, tls or none")
        if self.smtp_host and "@" not in parseaddr(self.smtp_from)[1]:
            raise ValueError("ESCOBA_SMTP_FROM (an address) is required with ESCOBA_SMTP_HOST")
        return self

    @property
    def email(self) -> bool:
        """E-mail notices are on: the server has an SMTP host."""
        return bool(self.smtp_host)

    @property
    def smtp_port_in_force(self) -> int:
        if self.smtp_port is not None:
            return self.smtp_port
        return {"tls": 465, "none": 25}.get(self.smtp_security, 587)

    @field_validator("metrics")
    @classmethod
    def _metrics_access(cls, value: str) -> str:
        MetricsAccess(value)
        return value

    @field_validator("notice_warnings")
    @classmethod
    def _fractions(cls, value: str) -> str:
        parse_fractions(value)
        return value

    @property
    def warning_fractions(self) -> tuple[float, ...]:
        """`notice_warnings` as numbers, in order."""
        return parse_fractions(self.notice_warnings)

    @property
    def sqlalchemy_url(self) -> str:
        url = self.database_url
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://") :]
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        return url

    @property
    def limits(self) -> PageLimits:
        """The settings the pages quote (hours, days, lengths)."""
        return PageLimits(
            absence_hours=self.absence_hours,
            expiry_days=self.expiry_days,
            name_max_length=self.name_max_length,
            chat_max_length=self.chat_max_length,
        )

    @property
    def is_sqlite(self) -> bool:
        return self.sqlalchemy_url.startswith("sqlite")

    @property
    def live(self) -> str:
        """The live backend in force: `auto` is postgres on PostgreSQL,
        redis when a Redis URL is set, else sqlite (one serving process, which
        also hears what other processes commit to the file)."""
        if self.live_backend != "auto":
            return self.live_backend
        if not self.is_sqlite:
            return "postgres"
        return "redis" if self.redis_url else "sqlite"


def parse_fractions(value: str) -> tuple[float, ...]:
    """«0.5,0.8333» → (0.5, 0.8333): each above 0 and below 1 (empty: none)."""
    parts = [p.strip() for p in value.split(",") if p.strip()]
    try:
        fractions = sorted({float(p) for p in parts})
    except ValueError:
        raise ValueError("fractions such as 0.5,0.8333") from None
    if any(not 0 < f < 1 for f in fractions):
        raise ValueError("each fraction above 0 and below 1")
    return tuple(fractions)


def _default(name: str) -> float:
    default = Settings.model_fields[name].default
    assert isinstance(default, int | float)
    return default


@dataclass(frozen=True, slots=True)
class PageLimits:
    """The settings that pages and sentences quote (`escoba.words.Limits`):
    the hours before TERMINAR POR AUSENCIA, the days before a table expires,
    the longest name and chat line (a form's `maxlength`). Frozen and
    hashable, it keys the template environments (`templating.environment`);
    its defaults are the settings'."""

    absence_hours: float = _default("absence_hours")
    expiry_days: float = _default("expiry_days")
    name_max_length: int = int(_default("name_max_length"))
    chat_max_length: int = int(_default("chat_max_length"))


#: The settings' own values, for pages made without an app (tests, tools).
DEFAULT_LIMITS = PageLimits()
