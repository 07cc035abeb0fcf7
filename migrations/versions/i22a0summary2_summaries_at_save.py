"""games.summary written with every version: the summaries of the games stored before (issue 22)

Revision ID: i22a0summary2
Revises: i13m01_merge_heads
Create Date: 2026-11-25 09:40:00

From now on a game's summary (companion.storage.summaries: names, and when it scores its points, places and
winners) is written in the statement that writes its document, so the statistics and the exports
read it and score nothing. This makes it for every game already stored, a batch at a time, without
touching `updated_at` (the history's order) and only where the game is still at the version read.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'i22a0summary2'
down_revision = 'i13m01_merge_heads'
branch_labels = None
depends_on = None

BATCH = 500


def upgrade():
    from companion.storage import summaries  # the engines of this code: the summaries the app will read

    games = sa.table('games', sa.column('id', sa.Integer), sa.column('version', sa.Integer),
                     sa.column('document', sa.JSON), sa.column('summary', sa.JSON))
    conn = op.get_bind()
    ids = [row[0] for row in conn.execute(sa.select(games.c.id).order_by(games.c.id))]
    for start in range(0, len(ids), BATCH):
        rows = conn.execute(sa.select(games.c.id, games.c.version, games.c.document, games.c.summary)
                            .where(games.c.id.in_(ids[start:start + BATCH]))).all()
        made = [{"row_id": row.id, "row_version": row.version,
                 "row_summary": summaries.make(row.document, row.version)}
                for row in rows if not summaries.current(row.summary, row.version)]
        if made:
            conn.execute(sa.update(games).where(games.c.id == sa.bindparam("row_id"),
                                                games.c.version == sa.bindparam("row_version"))
                         .values(summary=sa.bindparam("row_summary")), made)


def downgrade():
    pass  # the summaries stay: older code remakes those it does not recognise (another engine)
