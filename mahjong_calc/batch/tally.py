"""The counts behind the terminal summary and the exit status."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from ..core.batch_record import RecordId
from .evaluate import NOT_A_WIN, WIN, Outcome

FAILURES_SHOWN: Final = 20  # distinct failure messages the summary lists
LINES_SHOWN: Final = 3  # the first lines (and ids) the summary gives for each


class Failure(NamedTuple):
    """One distinct failure message, as the summary lists it: how many rows had it, and the first of them."""

    code: str
    message: str
    records: int
    first: tuple[tuple[int, RecordId], ...]  # (line, id) of its first LINES_SHOWN rows


@dataclass
class Tally:
    """Counts for the terminal summary and the exit status."""

    records: int = 0
    wins: int = 0
    not_wins: int = 0
    errors: int = 0
    compiled: int = 0  # records answered by the compiled scorer (or its cached answer)
    value_by_variant: Counter[str] = field(default_factory=Counter)
    wins_by_variant: Counter[str] = field(default_factory=Counter)
    patterns: Counter[str] = field(default_factory=Counter)
    error_codes: Counter[str] = field(default_factory=Counter)  # error rows per code
    failures: dict[tuple[str, str], Failure] = field(default_factory=dict)  # the first FAILURES_SHOWN distinct messages
    failures_other: int = 0  # error rows whose message is not among them

    def add(self, out: Outcome, line: int = 0, rid: RecordId = None) -> None:
        self.records += 1
        if out.compiled:
            self.compiled += 1
        if out.status == WIN:
            self.wins += 1
            self.value_by_variant[out.variant or "?"] += out.value
            self.wins_by_variant[out.variant or "?"] += 1
            patterns = self.patterns
            for key in out.patterns:  # not Counter.update: its Mapping check costs more than these few keys
                patterns[key] += 1
        elif out.status == NOT_A_WIN:
            self.not_wins += 1
        else:
            self.errors += 1
            self.error_codes[out.code] += 1
            self._fail(Failure(out.code, out.message + out.where, 1, ((line, rid),)))

    def _fail(self, failure: Failure) -> None:
        key = (failure.code, failure.message)
        known = self.failures.get(key)
        if known is not None:
            first = known.first if len(known.first) >= LINES_SHOWN else (known.first + failure.first)[:LINES_SHOWN]
            self.failures[key] = known._replace(records=known.records + failure.records, first=first)
        elif len(self.failures) < FAILURES_SHOWN:
            self.failures[key] = failure
        else:
            self.failures_other += failure.records

    def merge(self, other: Tally) -> None:
        """Add a chunk's counts to these."""
        self.records += other.records
        self.wins += other.wins
        self.not_wins += other.not_wins
        self.errors += other.errors
        self.compiled += other.compiled
        self.value_by_variant.update(other.value_by_variant)
        self.wins_by_variant.update(other.wins_by_variant)
        self.patterns.update(other.patterns)
        self.error_codes.update(other.error_codes)
        for failure in other.failures.values():  # chunks come in input order
            self._fail(failure)
        self.failures_other += other.failures_other
