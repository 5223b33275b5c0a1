"""`serve`'s lines on stdout while it runs (a game begun, with its link), never in the event loop's way.

The lines go through a bounded queue to a thread of their own, which writes them to the
descriptor. Stdout may be a pipe nobody reads (`| sleep 300`) or a paused terminal: then
that thread waits, the queue fills, and further lines are dropped, said once on stderr; the
server goes on answering, and stops on SIGTERM as ever. A stdout that cannot be written at
all (`| head -1` gone, a closed descriptor) is said once on stderr, and the lines stop.
"""

from __future__ import annotations

import logging
import queue
import sys
import threading

from ..core.stdout import OutputError, write_all

LOG = logging.getLogger("uvicorn.error")
QUEUE = 64  # lines waiting for stdout; past this they are dropped


class Announcer:
    """`say(line)` never blocks; the lines reach stdout in order, or are dropped when it is full."""

    def __init__(self, fd: int = 1, size: int = QUEUE) -> None:
        self.fd = fd
        self.encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        self.lines: queue.Queue[str] = queue.Queue(size)
        self.dropped = 0
        self.broken = False
        self._thread: threading.Thread | None = None

    def say(self, line: str) -> None:
        if self.broken:
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._write, name="mjcalc-announce", daemon=True)
            self._thread.start()
        try:
            self.lines.put_nowait(line)
        except queue.Full:
            self.dropped += 1
            if self.dropped == 1:
                LOG.warning("mjcalc serve: stdout is not being read (a full pipe or a paused terminal): "
                            "the links of new games are not printed until it is; the server goes on")

    def _write(self) -> None:
        while True:
            line = self.lines.get()
            try:
                write_all(self.fd, (line + "\n").encode(self.encoding, "backslashreplace"))
            except OutputError as exc:
                self.broken = True
                LOG.warning("mjcalc serve: stdout cannot be written (%s): the links of new games are no longer printed; "
                            "the server goes on", exc.cause.strerror or exc.cause)
                return
