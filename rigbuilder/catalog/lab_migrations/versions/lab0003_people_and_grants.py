"""people and their rights: who created a build, plan or part; the server records who changed a row;
grants for the reader, member and administrator roles; row-level security on owned rows

Revision ID: lab0003
Revises: lab0002
Create Date: 2026-11-29

On every database: ``created_by`` on lab_part, lab_build and lab_cluster (the rows one member owns;
existing rows get their last changer). On PostgreSQL also (docs/lab-database.md, "People"):

- a trigger writes ``updated_by`` (and, for a new owned row, ``created_by``) from ``session_user``,
  the login role, whatever role the connection took with SET ROLE: no client can name another
  person, and ``ALTER ROLE alice SET role rigbuilder_admin`` no longer hides who alice is;
- grants (for the roles that exist): rigbuilder_reader reads; rigbuilder_writer (a member) reads,
  and changes prices, stock and the rows it created; rigbuilder_admin (the owner of the tables)
  everything. Nobody but the owner may change the version table; PUBLIC gets nothing;
- row-level security on the owned tables: a member changes or deletes only its own rows; a member
  of rigbuilder_admin (or the tables' owner, or a superuser) any.
"""
import sqlalchemy as sa
from alembic import op

revision = "lab0003"
down_revision = "lab0002"
branch_labels = None
depends_on = None

OWNED = ("lab_part", "lab_build", "lab_cluster")
SHARED = ("lab_price", "lab_inventory")
SEQUENCES = ("lab_price_id_seq", "lab_inventory_id_seq")
VERSION_TABLE = "rigbuilder_lab_version"

STAMP = """
CREATE OR REPLACE FUNCTION rigbuilder_lab_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_by := left(session_user::text, 80);
  IF TG_ARGV[0] = 'owned' THEN
    IF TG_OP = 'INSERT' THEN
      NEW.created_by := left(session_user::text, 80);
    ELSE
      NEW.created_by := OLD.created_by;
    END IF;
  END IF;
  RETURN NEW;
END
$$
"""

MINE_OR_ADMIN = ("(created_by = session_user OR EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = 'rigbuilder_admin' "
            "AND pg_has_role(session_user, r.oid, 'MEMBER')))")


def _if_role(role: str, statements: list[str]) -> str:
    body = "\n".join(f"    EXECUTE {_quote(s)};" for s in statements)
    return (f"DO $$\nBEGIN\n  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') THEN\n{body}\n"
            f"  END IF;\nEND\n$$")


def _quote(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def upgrade() -> None:
    for table in OWNED:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("created_by", sa.String(length=80), nullable=False, server_default=""))
        op.execute(f"UPDATE {table} SET created_by = updated_by")
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in OWNED:
        op.execute(f"ALTER TABLE {table} ALTER COLUMN created_by SET DEFAULT left(session_user::text, 80)")
    op.execute(STAMP)
    op.execute("REVOKE ALL ON FUNCTION rigbuilder_lab_stamp() FROM PUBLIC")
    for table in OWNED + SHARED:
        kind = "owned" if table in OWNED else "shared"
        op.execute(f"CREATE TRIGGER {table}_stamp BEFORE INSERT OR UPDATE ON {table} FOR EACH ROW "
                   f"EXECUTE FUNCTION rigbuilder_lab_stamp('{kind}')")
    tables = OWNED + SHARED + (VERSION_TABLE,)
    for table in tables:
        op.execute(f"REVOKE ALL ON {table} FROM PUBLIC")
    op.execute(_if_role("rigbuilder_reader", [f"REVOKE ALL ON {t} FROM rigbuilder_reader" for t in tables]
                        + [f"GRANT SELECT ON {t} TO rigbuilder_reader" for t in tables]))
    op.execute(_if_role("rigbuilder_writer", [f"REVOKE ALL ON {t} FROM rigbuilder_writer" for t in tables]
                        + [f"GRANT SELECT ON {t} TO rigbuilder_writer" for t in tables]
                        + [f"GRANT INSERT, UPDATE, DELETE ON {t} TO rigbuilder_writer" for t in OWNED + SHARED]
                        + [f"GRANT USAGE, SELECT ON SEQUENCE {q} TO rigbuilder_writer" for q in SEQUENCES]))
    for table in OWNED:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"CREATE POLICY {table}_read ON {table} FOR SELECT USING (true)")
        op.execute(f"CREATE POLICY {table}_add ON {table} FOR INSERT WITH CHECK {MINE_OR_ADMIN}")
        op.execute(f"CREATE POLICY {table}_change ON {table} FOR UPDATE USING {MINE_OR_ADMIN} WITH CHECK {MINE_OR_ADMIN}")
        op.execute(f"CREATE POLICY {table}_remove ON {table} FOR DELETE USING {MINE_OR_ADMIN}")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in OWNED:
            for policy in ("read", "add", "change", "remove"):
                op.execute(f"DROP POLICY IF EXISTS {table}_{policy} ON {table}")
            op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
        for table in OWNED + SHARED:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_stamp ON {table}")
        op.execute("DROP FUNCTION IF EXISTS rigbuilder_lab_stamp()")
    for table in reversed(OWNED):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("created_by")
