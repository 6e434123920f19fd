"""the market a price was seen in; calibration factors pulled from the lab

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29

- ``user_price.market``: where the price was seen (``rigbuilder.domain.market.MARKETS``: "US" a US
  price before sales tax, "DE" a German price with VAT, ...), as a price feed's ``market`` column
  gives it; "" (every price stored before) is the user's own price, tax included;
- ``shared_calibration``: the lab's calibration factors per card model as ``lab calibration --pull``
  copied them (with who shared each), applied where the user's own logs give none.
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    with op.batch_alter_table("user_price") as batch:
        batch.add_column(sa.Column("market", S(length=8), nullable=False, server_default=""))
    op.create_table(
        "shared_calibration",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("part_id", S(length=120), nullable=False),
        sa.Column("factor", sa.Float(), nullable=False),
        sa.Column("logs", sa.Integer(), nullable=False),
        sa.Column("latest", S(length=40), nullable=False),
        sa.Column("shared_by", S(length=80), nullable=False),
        sa.Column("pulled", S(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("shared_calibration") as batch:
        batch.create_index("ix_shared_calibration_part_id", ["part_id"], unique=True)


def downgrade() -> None:
    op.drop_table("shared_calibration")
    with op.batch_alter_table("user_price") as batch:
        batch.drop_column("market")
