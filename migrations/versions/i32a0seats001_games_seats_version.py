"""the version at which a game's seats last changed (games.seats_version)

Revision ID: i32a0seats001
Revises: i31a0photo001
Create Date: 2026-11-26 16:00:00

Issue 32, the players changed after the start: an autosave is keyed by seat, so one based on a
version older than the last reorder (or a player added or removed) is refused. Every game stored
before has had its seats since its creation: 0.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'i32a0seats001'
down_revision = 'i31a0photo001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seats_version', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('seats_version')
