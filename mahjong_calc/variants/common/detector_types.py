"""Pattern detectors: one small function per hand pattern, one signature.

A detector takes one way of reading a winning hand (Chizhou and Pujiang: a `SetsRead`,
variants/common/read.py; Wuhu: a `WuhuRead`) and returns how many times its pattern
occurs there: 0 for absent, usually 1, more for patterns that can repeat (e.g. 四核).
Each variant's detectors module ends with `DETECTORS`, a plain dict from the pattern
keys its YAML may list to these functions; a function shared by several variants lives
in `detectors.py` and is listed under whatever key each variant uses. A ruleset naming
a key its variant lacks is refused at load (`ruleset_invalid`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Detector = Callable[[Any], int]  # SetsRead -> int (Chizhou, Pujiang); WuhuRead -> int (Wuhu)
Detectors = Mapping[str, Detector]


def detect(detectors: tuple[tuple[str, Detector], ...], reading: Any) -> dict[str, int]:
    """Run `(key, detector)` pairs in order over one reading; keep the keys whose pattern is present, with its count."""
    found: dict[str, int] = {}
    for key, fn in detectors:
        times = fn(reading)
        if times:
            found[key] = int(times)
    return found
