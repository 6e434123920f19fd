"""Alembic migrations of the lab database (SQLite and PostgreSQL)."""

VERSION_TABLE = "rigbuilder_lab_version"
"""The lab database's Alembic version table (its own name: a lab's schema may hold other tables)."""
