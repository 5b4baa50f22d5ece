"""Settings, from the environment only (every one documented, with its
default, in docs/settings.md; a test keeps the two in step)."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    secret_key: str | None = Field(
        default=None,
        description="Signs seat cookies. Unset: a random key kept in the database.",
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
    worker_threads: int = Field(
        default=4,
        description="Threads per process for the few routes off the event loop (health, files).",
    )
    absence_hours: float = 48.0
    expiry_days: float = 7.0
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
    log_format: str = Field(default="json", description="json (one object a line) or text.")
    log_level: str = Field(default="INFO", description="Python logging level.")

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
