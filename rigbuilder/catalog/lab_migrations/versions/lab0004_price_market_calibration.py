"""the market a lab price was seen in; calibration factors shared in the lab

Revision ID: lab0004
Revises: lab0003
Create Date: 2026-11-29

- ``lab_price.market``: where the price was seen (a key of ``rigbuilder.domain.market.MARKETS``:
  "US" a US price before sales tax, "DE" a German price with 19% VAT, ...; "" the lab's own price
  paid, tax included), so that a price shared by ``price update --lab`` keeps its tax;
- ``lab_calibration``: per card model (catalog part id), the factor measured over planned at load
  a member's power logs gave (``rigbuilder.domain.calibration``), with the number of logs and the
  newest log's date; one row per card model, edited by compare and set like a price. On PostgreSQL
  the server stamps who changed it (the trigger of ``lab0003``) and grants it as the prices: the
  reader reads, a member reads and writes.
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "lab0004"
down_revision = "lab0003"
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString
TABLE = "lab_calibration"
SEQUENCE = "lab_calibration_id_seq"


def upgrade() -> None:
    with op.batch_alter_table("lab_price") as batch:
        batch.add_column(sa.Column("market", S(length=8), nullable=False, server_default=""))
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("part_id", S(length=120), nullable=False),
        sa.Column("factor", sa.Float(), nullable=False),
        sa.Column("logs", sa.Integer(), nullable=False),
        sa.Column("latest", S(length=40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_by", S(length=80), nullable=False),
        sa.Column("updated_at", S(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("part_id", name="uq_lab_calibration_part"),
    )
    op.create_index("ix_lab_calibration_part_id", TABLE, ["part_id"], unique=False)
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"CREATE TRIGGER {TABLE}_stamp BEFORE INSERT OR UPDATE ON {TABLE} FOR EACH ROW "
               "EXECUTE FUNCTION rigbuilder_lab_stamp('shared')")
    op.execute(f"REVOKE ALL ON {TABLE} FROM PUBLIC")
    op.execute(_if_role("rigbuilder_reader", [f"GRANT SELECT ON {TABLE} TO rigbuilder_reader"]))
    op.execute(_if_role("rigbuilder_writer", [f"GRANT SELECT, INSERT, UPDATE, DELETE ON {TABLE} TO rigbuilder_writer",
                                              f"GRANT USAGE, SELECT ON SEQUENCE {SEQUENCE} TO rigbuilder_writer"]))


def _if_role(role: str, statements: list) -> str:
    body = "\n".join("    EXECUTE '" + s.replace("'", "''") + "';" for s in statements)
    return (f"DO $$\nBEGIN\n  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') THEN\n{body}\n"
            f"  END IF;\nEND\n$$")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP TRIGGER IF EXISTS {TABLE}_stamp ON {TABLE}")
    op.drop_index("ix_lab_calibration_part_id", table_name=TABLE)
    op.drop_table(TABLE)
    with op.batch_alter_table("lab_price") as batch:
        batch.drop_column("market")
