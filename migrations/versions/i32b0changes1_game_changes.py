"""the game's log of changes (game_changes): which phone changed which fields, from what to what

Revision ID: i32b0changes1
Revises: i32a0seats001
Create Date: 2026-11-26 17:30:00

Issue 32, undo and the game's log: one row per stored save (the fields it changed, before and
after, as the page shows them), removed with its game (ON DELETE CASCADE). The games stored before
have no log: nothing of theirs can be undone, everything else is as it was.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'i32b0changes1'
down_revision = 'i32a0seats001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'game_changes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('phone', sa.String(length=32), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('changes', sa.Text(), nullable=False),
        sa.Column('undo_of', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_game_changes_game_id_id', 'game_changes', ['game_id', 'id'], unique=False)


def downgrade():
    op.drop_index('ix_game_changes_game_id_id', table_name='game_changes')
    op.drop_table('game_changes')
