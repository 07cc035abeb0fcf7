"""one-time key of the new-game form

Revision ID: i11a01_creation_key
Revises: fce37012f846
Create Date: 2026-11-24 19:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'i11a01_creation_key'
down_revision = 'fce37012f846'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('creation_key', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_creation_key'), ['creation_key'], unique=True)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_creation_key'))
        batch_op.drop_column('creation_key')
