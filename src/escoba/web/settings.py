"""Settings, from the environment only (documented in the README)."""

from __future__ import annotations

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ESCOBA_", extra="ignore")

    database_url: str = Field(
        default="sqlite:///escoba.db",
        validation_alias=AliasChoices("DATABASE_URL", "ESCOBA_DATABASE_URL"),
        description="SQLAlchemy URL; postgresql:// URLs use psycopg 3.",
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
    absence_hours: float = 48.0
    expiry_days: float = 7.0
    chat_max_length: int = 300
    chat_burst: int = 5
    chat_window_seconds: float = 10.0
    name_max_length: int = 24
    secure_cookies: bool = Field(default=False, description="Mark cookies Secure (HTTPS).")
    base_url: str = Field(default="", description="Public origin for invite links, if proxied.")

    @property
    def sqlalchemy_url(self) -> str:
        url = self.database_url
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://") :]
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        return url

    @property
    def is_sqlite(self) -> bool:
        return self.sqlalchemy_url.startswith("sqlite")
