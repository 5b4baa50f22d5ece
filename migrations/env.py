"""Alembic environment: the URL comes from the caller (escoba.web.base.db.migrate)
or from DATABASE_URL; SQLite migrations run in batch mode."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

from escoba.web.base.models import Base
from escoba.web.base.settings import Settings

config = context.config
url = config.get_main_option("sqlalchemy.url") or Settings().sqlalchemy_url
target_metadata = Base.metadata


def run_migrations_offline() -> None:
    context.configure(url=url, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = create_engine(url, poolclass=pool.NullPool)
    with connectable.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
    connectable.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
