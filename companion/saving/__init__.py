"""Saving a game at the table, as one service (issue 21): no Flask request, no WTForms in its
signatures.

- `wire`: what a phone sends (its changes, each with the value it was based on, the rows it added, the
  row each field was typed for, the version) and how a posted mapping is read into it.
- `merge`: the changes laid over the values stored NOW (pure functions): a field is a conflict only
  when the other side changed it too, to another value, as the stored document means it; rows both
  phones added are both kept; a game's fields that follow a row by its key go with it.
- `service`: one save from start to end: merge, check, the draft/scored rule, a save that changes
  nothing writes nothing, the versioned write retried on the fresh record when another save got in.

The view (`companion/views/edit.py`) only translates the request into a `wire.Save` and the
`service.Outcome` into its answer. WTForms still renders the page and reads the no-JS post; the
service takes the game's form steps (`service.Steps`: `companion.forms.steps.Steps` is the one every
game uses) and the merge a game's rules (`merge.Rules`: its `companion.forms.adapter.Adapter`).
"""
