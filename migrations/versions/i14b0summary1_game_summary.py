"""games.summary: the statistics' remembered result of each game (issue 14)

Revision ID: i14b0summary1
Revises: i14a0uid0001
Create Date: 2026-11-24 19:00:00

Empty for every existing game: the statistics page fills it the first time it needs it.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'i14b0summary1'
down_revision = 'i14a0uid0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('summary', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('summary')
