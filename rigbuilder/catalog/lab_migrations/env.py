"""Alembic environment for the lab database: the same steps on SQLite (batch mode) and PostgreSQL.

Its version table is ``rigbuilder_lab_version``, so a lab database may share a PostgreSQL schema
with other tables without clashing with another Alembic history."""
from __future__ import annotations

from alembic import context

from rigbuilder.catalog.labtables import LAB_METADATA

from rigbuilder.catalog.lab_migrations import VERSION_TABLE


def run_migrations_online() -> None:
    connectable = context.config.attributes.get("connection")
    if connectable is None:
        from rigbuilder.catalog.engine import make_engine
        engine = make_engine(context.config.get_main_option("sqlalchemy.url"))
        try:
            with engine.connect() as connection:
                _run(connection)
        finally:
            engine.dispose()
    else:
        _run(connectable)


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=LAB_METADATA, version_table=VERSION_TABLE,
                      render_as_batch=connection.dialect.name == "sqlite", transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
