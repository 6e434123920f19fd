"""Alembic environment for the user-parts database (SQLite, batch mode)."""
from __future__ import annotations

from alembic import context

from rigbuilder.catalog.tables import PartRow

target_metadata = PartRow.metadata


def run_migrations_online() -> None:
    connectable = context.config.attributes.get("connection")
    if connectable is None:
        from rigbuilder.catalog.engine import make_engine
        connectable = make_engine(context.config.get_main_option("sqlalchemy.url"))
        with connectable.connect() as connection:
            _run(connection)
    else:
        _run(connectable)


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True,
                      include_name=lambda name, type_, parent: type_ != "table" or name == "part")
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
