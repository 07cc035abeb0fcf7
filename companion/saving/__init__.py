"""Saving a game at the table, one path for the autosave and the no-JS post (issues 21, 29): `wire`
(what a phone sends), `merge` (its changes over the stored texts), `spec` (a document's texts, and
texts read as a document by the game's field spec), `problems` (every message beside its field),
`service` (one save from start to end: merge, read, check, the draft/scored rule, the versioned
write). No Flask request, no form: the view translates the request (`companion/views/edit.py`)."""
