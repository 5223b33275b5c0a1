"""A disk cache of validated rulesets, so one-hand commands skip YAML altogether.

`mjcalc score` runs once per hand; importing PyYAML and parsing the ruleset chain
costs more than the scoring. The first load of a shipped ruleset writes its merged,
validated document as JSON under `$XDG_CACHE_HOME/mjcalc` (default `~/.cache/mjcalc`;
`MJCALC_CACHE_DIR` overrides it). `MJCALC_NO_CACHE=1` turns the cache off.
Overrides (`--set`) are applied after the cache, never stored.

An entry is not trusted. It is used only when all of these hold, and otherwise
ignored (the YAML is read again and the entry rewritten):

* it is a regular file of at most `MAX_ENTRY` bytes, opened without following a
  symlink and without blocking (a FIFO or a link to /dev/zero is refused unread);
* it is this package version's format, for this path, and its `digest` (sha256 over
  the version, path, file stamps and document) matches, so a hand-edited number is
  caught;
* every file it was built from (the YAML and its `extends:` chain, and the modules
  that hold the schema) still has the same size, modification time and sha256;
* the document passes the same schema as the YAML did (`ruleset.build` re-validates
  it; a failure there also means "ignore the entry").

The digest is a checksum against corruption and hand edits, not a signature: whoever
can write the cache folder can also write the package.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core import __version__

FORMAT = 2
MAX_ENTRY = 1 << 20  # bytes; a real entry is a few kilobytes


def read_limited(path: str | Path, limit: int, follow_symlinks: bool = True) -> bytes:
    """The bytes of a regular file, at most `limit` of them; OSError for anything else.

    Opened non-blocking (a FIFO must not hang the open), checked to be a regular file
    (not /dev/zero, a FIFO or a directory) before a byte is read.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory")
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file (a FIFO, socket or device)")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


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
    return folder / f"ruleset-{hashlib.sha256(path.encode('utf-8', 'surrogateescape')).hexdigest()[:24]}.json"


def _stamp(path: str | Path) -> list[Any]:
    """[path, size, mtime_ns, sha256 of the contents] of a file the entry was built from."""
    st = os.stat(path)
    return [str(path), st.st_size, st.st_mtime_ns, hashlib.sha256(read_limited(path, MAX_ENTRY)).hexdigest()]


def _current(stamp: list[Any]) -> bool:
    st = os.stat(stamp[0])
    if [st.st_size, st.st_mtime_ns] != stamp[1:3]:  # the cheap check first
        return False
    return bool(hashlib.sha256(read_limited(stamp[0], MAX_ENTRY)).hexdigest() == stamp[3])


def _version() -> str:
    return f"{__version__}/{FORMAT}"


def _digest(version: str, path: str, files: list[Any], data: Any) -> str:
    text = json.dumps([version, path, files, data], ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def get(path: str) -> dict[str, Any] | None:
    """The cached document for ruleset file `path`, if the entry holds up (see the module docstring).

    The caller must still validate the document (`ruleset.build`) and ignore the entry if that fails.
    """
    entry = _entry(path)
    if entry is None:
        return None
    try:
        cached = json.loads(read_limited(entry, MAX_ENTRY, follow_symlinks=False).decode("utf-8"))
        if not isinstance(cached, dict) or cached.get("version") != _version() or cached.get("path") != path:
            return None
        files, data = cached["files"], cached["data"]
        if not isinstance(files, list) or not isinstance(data, dict):
            return None
        if cached.get("digest") != _digest(cached["version"], path, files, data):
            return None
        if not files or not all(isinstance(s, list) and len(s) == 4 and _current(s) for s in files):
            return None
        return data
    except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError):
        return None


def put(path: str, files: Sequence[Path], data: dict[str, Any]) -> None:
    """Store `data` (built from `files`) for `path`; silently does nothing if it cannot."""
    entry = _entry(path)
    if entry is None:
        return
    try:
        stamps = [_stamp(f) for f in files]
        version = _version()
        record = {"version": version, "path": path, "files": stamps, "data": data, "digest": _digest(version, path, stamps, data)}
        text = json.dumps(record, ensure_ascii=False)
        if json.loads(text)["data"] != data:  # only data that JSON carries exactly (str keys, no tuples)
            return
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)  # left by a crash; O_EXCL below then never writes through a planted link
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(tmp, flags, 0o644)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        os.replace(tmp, entry)  # atomic: a concurrent reader sees the old entry or the new one
    except (OSError, TypeError, ValueError, RecursionError):
        return
