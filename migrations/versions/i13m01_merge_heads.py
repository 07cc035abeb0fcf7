"""Merge the heads of issue 11 (creation key, table labels) and issue 14 (uid, summary): no schema change.

Revision ID: i13m01_merge_heads
Revises: i11b01_table_labels, i14b0summary1
"""

revision = "i13m01_merge_heads"
down_revision = ("i11b01_table_labels", "i14b0summary1")
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
