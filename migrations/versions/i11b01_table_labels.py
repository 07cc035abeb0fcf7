"""names a table gives beside the document (Revive's three colours)

Revision ID: i11b01_table_labels
Revises: i11a01_creation_key
Create Date: 2026-11-24 19:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'i11b01_table_labels'
down_revision = 'i11a01_creation_key'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('labels', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('labels')
