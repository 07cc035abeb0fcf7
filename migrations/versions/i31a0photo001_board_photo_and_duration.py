"""the photo of the final board (game_photos, games.photo_key) and when a game was first scored

Revision ID: i31a0photo001
Revises: i24a0edition1
Create Date: 2026-11-26 15:00:00

Issue 31. `game_photos` holds one JPEG per game (bytes in the database: one backup holds the games
and their photos, PostgreSQL and several workers read them alike), removed with its game (ON DELETE
CASCADE). `games.photo_key` is the photo's digest, NULL when the game has none: every game stored
before has none. `games.first_scored_at` is set by the save that first makes a game scored; the
games scored before have NULL (their duration is unknown, and is not sent to BG Stats).
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'i31a0photo001'
down_revision = 'i24a0edition1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('first_scored_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('photo_key', sa.String(length=32), nullable=True))
    op.create_table(
        'game_photos',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('data', sa.LargeBinary(), nullable=False),
        sa.Column('width', sa.Integer(), nullable=False),
        sa.Column('height', sa.Integer(), nullable=False),
        sa.Column('digest', sa.String(length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id'),
    )


def downgrade():
    op.drop_table('game_photos')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('photo_key')
        batch_op.drop_column('first_scored_at')
