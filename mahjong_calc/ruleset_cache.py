"""A disk cache of validated rulesets, so one-hand commands skip YAML altogether.

`mjcalc score` runs once per hand; importing PyYAML and parsing the ruleset chain
costs more than the scoring. The first load of a shipped ruleset writes its merged,
validated data as JSON under `$XDG_CACHE_HOME/mjcalc` (default `~/.cache/mjcalc`;
`MJCALC_CACHE_DIR` overrides it). An entry is used only while every file it was
built from (the file and its `extends:` chain) still has the same size and
modification time (and so do `ruleset.py` and the variant's scorer module, where the
schema lives), and the package version matches; anything else, or any I/O
problem, falls back to reading the YAML. `MJCALC_NO_CACHE=1` turns the cache off.
Overrides (`--set`) are applied after the cache, never stored.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FORMAT = 1


def _dir() -> Path | None:
    if os.environ.get("MJCALC_NO_CACHE"):
        return None
    explicit = os.environ.get("MJCALC_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mjcalc"


def _entry(path: str) -> Path | None:
    folder = _dir()
    if folder is None:
        return None
    return folder / f"ruleset-{hashlib.sha256(path.encode('utf-8')).hexdigest()[:24]}.json"


def _stamp(path: str | Path) -> list[Any]:
    st = os.stat(path)
    return [str(path), st.st_size, st.st_mtime_ns]


def _version() -> str:
    from . import __version__

    return f"{__version__}/{FORMAT}"


def get(path: str) -> dict[str, Any] | None:
    """The cached data for ruleset file `path`, if present and still current."""
    entry = _entry(path)
    if entry is None:
        return None
    try:
        cached = json.loads(entry.read_text(encoding="utf-8"))
        if cached["version"] != _version() or cached["path"] != path:
            return None
        if any(_stamp(stamp[0]) != stamp for stamp in cached["files"]):
            return None
        data: dict[str, Any] = cached["data"]
        return data
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def put(path: str, files: Sequence[Path], data: dict[str, Any]) -> None:
    """Store `data` (built from `files`) for `path`; silently does nothing if it cannot."""
    entry = _entry(path)
    if entry is None:
        return
    try:
        text = json.dumps({"version": _version(), "path": path, "files": [_stamp(f) for f in files], "data": data},
                          ensure_ascii=False)
        if json.loads(text)["data"] != data:  # only data that JSON carries exactly (str keys, no tuples)
            return
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, entry)  # atomic: a concurrent reader sees the old entry or the new one
    except (OSError, TypeError, ValueError):
        return
