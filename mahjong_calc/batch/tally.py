"""The counts behind the terminal summary and the exit status."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core.records import RecordId
from .evaluate import NOT_A_WIN, WIN, Outcome

FAILURES_SHOWN = 20  # error rows the summary lists one by one


class Failure(NamedTuple):
    """An error row, as the summary lists it."""

    line: int
    id: RecordId
    code: str
    message: str


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
    failures: list[Failure] = field(default_factory=list)  # the first FAILURES_SHOWN error rows

    def add(self, out: Outcome, line: int = 0, rid: RecordId = None) -> None:
        self.records += 1
        if out.compiled:
            self.compiled += 1
        if out.status == WIN:
            self.wins += 1
            self.value_by_variant[out.variant or "?"] += out.value
            self.wins_by_variant[out.variant or "?"] += 1
            self.patterns.update(out.patterns)
        elif out.status == NOT_A_WIN:
            self.not_wins += 1
        else:
            self.errors += 1
            self.error_codes[out.code] += 1
            if len(self.failures) < FAILURES_SHOWN:
                self.failures.append(Failure(line, rid, out.code, out.message + out.where))

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
        self.failures.extend(other.failures[: FAILURES_SHOWN - len(self.failures)])  # chunks come in input order
