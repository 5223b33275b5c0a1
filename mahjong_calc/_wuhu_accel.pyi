"""Types of the optional compiled Wuhu scorer (_wuhu_accel.c); see accel.py."""

from typing import Any

FIELDS: tuple[str, ...]  # the record fields the compiled scorer reads
DETECTORS: tuple[str, ...]  # the pattern keys it has detectors for

class Plan:
    """A Wuhu ruleset packed for the compiled scorer (accel.compile_plan builds it)."""

    def __init__(self, *args: Any) -> None: ...
    def score(self, key: tuple[Any, ...], /) -> tuple[Any, ...] | None: ...
