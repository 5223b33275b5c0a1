"""The counts behind the terminal summary and the exit status."""

from __future__ import annotations

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
    # plain dicts, not Counters: a Counter's __delitem__ routes every store through a slot that looks
    # up __setitem__ by name (about 1,000 instructions a store, compiled)
    value_by_variant: dict[str, int] = field(default_factory=dict)
    wins_by_variant: dict[str, int] = field(default_factory=dict)
    patterns: dict[str, int] = field(default_factory=dict)  # in the order first seen (the summary sorts by count)
    error_codes: dict[str, int] = field(default_factory=dict)  # error rows per code
    failures: dict[tuple[str, str], Failure] = field(default_factory=dict)  # the first FAILURES_SHOWN distinct messages
    failures_other: int = 0  # error rows whose message is not among them

    def add(self, out: Outcome, line: int = 0, rid: RecordId = None) -> None:
        self.records += 1
        if out.compiled:
            self.compiled += 1
        if out.status == WIN:
            self.wins += 1
            variant = out.variant or "?"
            value_by = self.value_by_variant
            value_by[variant] = value_by.get(variant, 0) + out.value
            wins_by = self.wins_by_variant
            wins_by[variant] = wins_by.get(variant, 0) + 1
            patterns = self.patterns
            for key in out.patterns:
                patterns[key] = patterns.get(key, 0) + 1
        elif out.status == NOT_A_WIN:
            self.not_wins += 1
        else:
            self.errors += 1
            codes = self.error_codes
            codes[out.code] = codes.get(out.code, 0) + 1
            self._fail(Failure(out.code, out.message + out.where, 1, ((line, rid),)))

    def patterns_by_count(self) -> list[tuple[str, int]]:
        """The patterns as Counter.most_common gives them: the most wins first, ties in the order first seen."""
        return _by_count(self.patterns)

    def codes_by_count(self) -> list[tuple[str, int]]:
        """The error codes, the most rows first, ties in the order first seen."""
        return _by_count(self.error_codes)

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
        _add_counts(self.value_by_variant, other.value_by_variant)
        _add_counts(self.wins_by_variant, other.wins_by_variant)
        _add_counts(self.patterns, other.patterns)
        _add_counts(self.error_codes, other.error_codes)
        for failure in other.failures.values():  # chunks come in input order
            self._fail(failure)
        self.failures_other += other.failures_other


def _add_counts(mine: dict[str, int], theirs: dict[str, int]) -> None:
    """Counter.update of plain dicts: each count added, a new key at the end."""
    for key, n in theirs.items():
        mine[key] = mine.get(key, 0) + n


def _by_count(counts: dict[str, int]) -> list[tuple[str, int]]:
    """Counter.most_common: the highest count first, equal counts in the order first seen."""
    return sorted(counts.items(), key=lambda pair: -pair[1])
