"""measured power logs

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "measured_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("build_key", sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=False),
        sa.Column("build_name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("started", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("ended", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("imported", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("notes", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("measured_log") as batch:
        batch.create_index("ix_measured_log_build_key", ["build_key"], unique=False)
    op.create_table(
        "measured_card",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("log_id", sa.Integer(), sa.ForeignKey("measured_log.id"), nullable=False),
        sa.Column("gpu_num", sa.Integer(), nullable=False),
        sa.Column("part_id", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("card_index", sa.Integer(), nullable=False),
        sa.Column("card_name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("samples", sa.Integer(), nullable=False),
        sa.Column("idle_w", sa.Float(), nullable=True),
        sa.Column("load_w", sa.Float(), nullable=True),
        sa.Column("max_w", sa.Float(), nullable=True),
        sa.Column("limit_w", sa.Float(), nullable=True),
        sa.Column("planned_idle_w", sa.Float(), nullable=False),
        sa.Column("planned_load_w", sa.Float(), nullable=False),
        sa.Column("planned_limit_w", sa.Float(), nullable=True),
        sa.Column("reasons", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("slowdown_share", sa.Float(), nullable=False),
        sa.Column("energy_wh", sa.Float(), nullable=True),
        sa.Column("duration_s", sa.Float(), nullable=True),
        sa.Column("temp_max_c", sa.Float(), nullable=True),
        sa.Column("calibrates", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("measured_card") as batch:
        batch.create_index("ix_measured_card_log_id", ["log_id"], unique=False)
        batch.create_index("ix_measured_card_part_id", ["part_id"], unique=False)


def downgrade() -> None:
    op.drop_table("measured_card")
    op.drop_table("measured_log")
