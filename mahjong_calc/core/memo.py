"""Memo: the one kind of cache a run keeps, with one size policy.

A loaded ruleset keeps the texts made from it (an item's JSON, a pattern list's) in one; a
scoring session (api/session.py) keeps its per-run answers (a record's row, the checked facts
of a combination of flags) in others. Keys are values, never identities. A memo that reaches
`LIMIT` entries starts afresh: a bound on memory, at the cost of making some entries again.
"""

from __future__ import annotations

from typing import Any, Final, final

LIMIT: Final = 1 << 15


@final
class Memo:
    """A dict of made values, emptied when it reaches its limit (LIMIT) of entries."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.made: dict[Any, Any] = {}
        self.limit = limit  # LIMIT, but in a test

    def get(self, key: Any) -> Any:
        """The value kept under `key`, or None."""
        return self.made.get(key)

    def keep(self, key: Any, value: Any) -> Any:
        """Keep `value` under `key` and give it back."""
        made = self.made
        if len(made) >= self.limit:
            made.clear()
        made[key] = value
        return value

    def clear(self) -> None:
        self.made.clear()

    def __len__(self) -> int:
        return len(self.made)
