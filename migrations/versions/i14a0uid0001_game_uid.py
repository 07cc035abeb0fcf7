"""games.uid: a game's stable identity for export, import and BG Stats (issue 14)

Revision ID: i14a0uid0001
Revises: fce37012f846
Create Date: 2026-11-24 18:45:00

Existing games get a random uid each, then the column becomes required and unique.
"""
import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'i14a0uid0001'
down_revision = 'fce37012f846'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('uid', sa.String(length=32), nullable=True))
    games = sa.table('games', sa.column('id', sa.Integer), sa.column('uid', sa.String))
    conn = op.get_bind()
    for (game_id,) in conn.execute(sa.select(games.c.id)).all():
        conn.execute(sa.update(games).where(games.c.id == game_id).values(uid=secrets.token_hex(16)))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('uid', existing_type=sa.String(length=32), nullable=False)
        batch_op.create_index(batch_op.f('ix_games_uid'), ['uid'], unique=True)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_uid'))
        batch_op.drop_column('uid')
