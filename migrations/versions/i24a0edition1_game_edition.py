"""games.edition: the rule set a table plays by, beside the document (Reterra's English edition)

Revision ID: i24a0edition1
Revises: i22a0summary2
Create Date: 2026-11-25 12:15:00

A game with several editions (`Game.editions`) breaks ties by the one chosen: Reterra's French rules
on inhabitants, its English edition's FAQ on buildings. The contract document has no place for it
(unknown keys are errors, other tools read it), so it is kept beside it like the colours. NULL, the
value of every game stored before, is the game's default: the French rules, as they were scored.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'i24a0edition1'
down_revision = 'i22a0summary2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('edition', sa.String(length=20), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('edition')
