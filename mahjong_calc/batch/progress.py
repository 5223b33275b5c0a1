"""The batch progress bar: Rich, on stderr, only when stderr is a terminal."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..core.words import N_
from .items import BytesRead


@contextmanager
def progress_bar(total_bytes: int | None, pos: BytesRead) -> Iterator[Callable[[int], None]]:
    """Yield `advance(records)`; shows records, records/s and, when the size is known, an ETA."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = [  # the catalogue's words around Rich's own fields, which Rich fills in as it goes
        TextColumn(N_("{count} records", count="{task.fields[records]:,}").render()),
        TextColumn(N_("{rate} records/s", rate="{task.fields[rate]:,.0f}").render()),
        BarColumn(),
        TimeElapsedColumn(),
    ]
    if total_bytes:
        columns.append(TimeRemainingColumn())
    start = time.perf_counter()
    done = 0
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task("batch", total=total_bytes or None, records=0, rate=0.0)

        def advance(records: int) -> None:
            nonlocal done
            done += records
            elapsed = time.perf_counter() - start
            bar.update(task, completed=pos.bytes, records=done, rate=done / elapsed if elapsed else 0.0)

        yield advance
