"""Every byte mjcalc writes to stdout goes through here: all of it, or an `OutputError`.

An unbuffered stdout (`PYTHONUNBUFFERED=1`, `python -u`) is a raw file: a write may take
only part of the bytes, and on a non-blocking descriptor (a pipe whose reader is slow) it
may take none, and Python's text layer drops the rest without a word. `write_all` loops
on `os.write` until every byte is out, waiting for the descriptor to become writable
(poll, never a busy loop) when it would block. `install()` puts a text stream built on
it in the place of `sys.stdout`, so that click's echo, Rich and the batch rows all write
through it, buffered or not as before.
"""

from __future__ import annotations

import io
import os
import sys
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import Buffer


class OutputError(Exception):
    """Stdout could not be written; `cli.app.main` turns it into one line and exit 3.

    `written` is how many bytes of the failed write did reach the output.
    """

    def __init__(self, cause: OSError, written: int = 0) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.written = written


def _wait_writable(fd: int) -> None:
    import select

    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        poller.poll()  # also returns on an error or hang-up, which the next write reports
    else:
        select.select([], [fd], [fd])


def write_all(fd: int, data: Buffer) -> None:
    """Write every byte of `data` to the descriptor `fd`, or raise `OutputError`."""
    view = memoryview(data).cast("B")
    done = 0
    while done < len(view):
        try:
            n = os.write(fd, view[done:])
        except BlockingIOError:
            n = 0
        except OSError as exc:
            raise OutputError(exc, done) from None
        if n == 0:
            _wait_writable(fd)
        done += n


def write_file(binary: IO[bytes], data: Buffer) -> None:
    """Write every byte of `data` to a binary file object without a descriptor (a test's)."""
    view = memoryview(data).cast("B")
    done = 0
    while done < len(view):
        n: int | None
        try:
            n = binary.write(view[done:])
        except BlockingIOError as exc:
            n = exc.characters_written
        except OSError as exc:
            raise OutputError(exc, done) from None
        if n is None:  # a raw file that would block: it took nothing
            n = 0
        done += n
    binary.flush()


class FullWriter(io.RawIOBase):
    """A raw stdout whose write always takes every byte (or raises `OutputError`)."""

    name = "<stdout>"

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: Buffer) -> int:
        write_all(self._fd, data)
        return memoryview(data).nbytes  # closing it leaves the descriptor open, as sys.stdout's own does


def install() -> None:
    """Replace `sys.stdout` with the same text stream (encoding, buffering) over a `FullWriter`."""
    out = sys.stdout
    raw = getattr(getattr(out, "buffer", None), "raw", getattr(out, "buffer", None))
    if type(raw) is not io.FileIO or not isinstance(out, io.TextIOWrapper):
        return  # no descriptor of its own (a test's capture), already installed, or a console
    try:
        out.flush()
        size = os.fstat(raw.fileno()).st_blksize
    except (OSError, ValueError):
        return  # a descriptor that cannot be written or asked: the first write says so
    writer = FullWriter(raw.fileno())
    unbuffered = out.buffer is raw
    binary: io.RawIOBase | io.BufferedWriter = writer if unbuffered else io.BufferedWriter(writer, size if size > 1 else io.DEFAULT_BUFFER_SIZE)
    sys.stdout = io.TextIOWrapper(
        binary,
        encoding=out.encoding,
        errors=out.errors,
        newline=None if os.name == "nt" else "\n",  # as Python makes sys.stdout
        line_buffering=out.line_buffering,
        write_through=out.write_through,
    )


def silence() -> None:
    """Point stdout's descriptor at /dev/null: after a failed write, nothing more may reach it,
    not even the interpreter's flush at exit (which would print "Exception ignored")."""
    try:
        if sys.stdout is not None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def encoding() -> str:
    """The name of the encoding stdout writes text in (`utf-8` when it is not known)."""
    return str(getattr(sys.stdout, "encoding", None) or "utf-8")


def can_show(text: str) -> bool:
    """Whether stdout's encoding can write `text` (an ASCII terminal cannot write 中)."""
    if text.isascii():
        return True
    try:
        text.encode(encoding())
    except UnicodeEncodeError:
        return False
    except LookupError:  # an encoding Python does not know: the write will say so
        return True
    return True


def ascii_json(text: str) -> str:
    r"""JSON text with every character outside ASCII written as a `\uXXXX` escape (a pair for
    one beyond the BMP): the same JSON value, writable in any encoding. Outside its strings,
    JSON is ASCII, so every such character is inside a string, where an escape means it."""
    if text.isascii():
        return text
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if code < 0x80:
            out.append(ch)
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
    return "".join(out)


class EncodingError(OutputError):
    """Stdout's encoding cannot write the output (`PYTHONIOENCODING=ascii`, a C locale)."""

    def __init__(self, name: str) -> None:
        super().__init__(OSError(0, f"the terminal's encoding ({name}) cannot show the output: set a UTF-8 locale "
                                    "(LANG=C.UTF-8, or PYTHONIOENCODING=utf-8), or use --json, which writes ASCII escapes"))
        self.name = name
