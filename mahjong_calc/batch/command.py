"""`mjcalc batch FILE`: open the input, pick the formats, run the engine, map the outcome to an exit status."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from itertools import chain
from typing import IO, Any

from ..core.batch_record import check_extra_fields, record_kinds
from ..core.collector import YOUNG, FreezeAsItGoes, kept_frozen
from ..core.errors import InputError, MjcalcError
from ..core.stdout import silence
from ..core.words import N_, Text
from .engine import FREEZE_EVERY, STOP_SIGNALS, BatchStopped, run_batch
from .evaluate import Defaults, configure, current_defaults
from .items import CSV, ENCODING_NAMES, BytesRead, RawRecord
from .readers import detect_format, read_items
from .tally import Tally

JOBS_PER_CPU = 4


def max_jobs() -> int:
    """The most worker processes `--jobs` may ask for: 4 per CPU."""
    return JOBS_PER_CPU * (os.cpu_count() or 1)


def run_file(
    name: str,
    input_format: str | None,
    out_format: str | None,
    jobs: int = 1,
    fail_fast: bool = False,
    rules: str | None = None,
    overrides: Sequence[str] = (),
    extra_fields: str = "error",
    sheet: str | None = None,
    verbose: bool = False,
) -> int:
    """`mjcalc batch NAME`: read, score, write to stdout; return the exit status.

    `sheet`: a workbook's sheet to read (default the first; `all`: every one); `verbose`: stderr says
    what the file was read as (a CSV file's encoding, a workbook's sheets).

    0: every record scored (a hand that is not a win is an answer); 1: some record is
    an error row. Raises InputError (exit 2) before anything is read when the request
    is wrong, and BatchStopped (exit 3) when the run cannot go on.
    """
    if jobs < 1 or jobs > max_jobs():
        raise InputError("bad_jobs", "--jobs must be between 1 and {value} (4 per CPU), not {jobs}", value=max_jobs(), jobs=jobs)
    check_extra_fields(extra_fields)
    defaults = Defaults(rules, tuple(overrides), extra_fields)
    if not defaults.plain:
        from ..api import resolve_ruleset

        resolve_ruleset(None, rules, overrides)  # a bad file or --set is exit 2, before anything is read
    before = current_defaults()
    configure(defaults)
    try:
        with kept_frozen(now=True, young=YOUNG):  # what is loaded by now lives through the run: keep it out of the collector's walks
            return _run(name, input_format, out_format, jobs, fail_fast, defaults, sheet, verbose)
    finally:
        configure(before)  # a run in a process that goes on (a library call, a test) leaves no --rules/--set behind


def _run(name: str, input_format: str | None, out_format: str | None, jobs: int, fail_fast: bool, defaults: Defaults,
         sheet: str | None = None, verbose: bool = False) -> int:
    """`run_file` once its request is checked and `defaults` configured."""
    fmt = detect_format(name, input_format)
    if sys.stdout is None:
        raise BatchStopped("output_error", "standard output is closed", 0, 1)
    if out_format is None:
        out_format = "summary" if sys.stdout.isatty() else "jsonl"
    if name == "-":
        if sys.stdin is None:
            raise InputError("cannot_read_input", "standard input is closed (give a file, or a pipe to '-')")
        stream: IO[bytes] = sys.stdin.buffer
        if fmt == "xlsx":  # a workbook is read from a seekable file
            import shutil
            import tempfile

            spooled = tempfile.SpooledTemporaryFile(1 << 24)  # noqa: SIM115 - closed with the run's other streams
            shutil.copyfileobj(stream, spooled)
            spooled.seek(0)
            stream = spooled
    else:
        try:
            stream = open(name, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise InputError("cannot_read_input", "cannot read {name!r}: {strerror}", name=name, strerror=exc.strerror) from None
    try:
        pos = BytesRead()
        items = read_items(stream, fmt, pos, sheet=sheet, name=name)
        if defaults.extra_fields == "keep" and out_format == "csv" and fmt == "csv":
            items, columns = _extra_columns(items)
            configure(defaults._replace(extra_columns=columns))
        out = None if out_format == "summary" else sys.stdout
        with stop_on_signals() as stop:
            if sys.stderr is not None and sys.stderr.isatty():
                from .progress import progress_bar

                size = os.fstat(stream.fileno()).st_size if name != "-" else 0
                with progress_bar(size or None, pos) as advance:
                    tally = run_batch(items, out, out_format, jobs, fail_fast, advance, pace=FreezeAsItGoes(FREEZE_EVERY), stop=stop)
            else:
                tally = run_batch(items, out, out_format, jobs, fail_fast, pace=FreezeAsItGoes(FREEZE_EVERY), stop=stop)
    except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
        silence()
        return 0
    except BatchStopped:
        silence()
        raise
    finally:
        if name != "-" or fmt == "xlsx":
            stream.close()
        if sys.stderr is not None:
            for note in read_notes(name, fmt, pos, verbose, sheet is None):
                sys.stderr.write(f"mjcalc: {note}\n")
    if out_format == "summary":
        from ..present.render import print_summary

        print_summary(tally, pattern_names(tally, defaults))
    elif tally.errors and sys.stderr is not None and _to_a_file(sys.stdout):
        codes = ", ".join(f"{code} {n}" for code, n in tally.codes_by_count())
        sys.stderr.write("mjcalc: " + N_("{errors} of {records} records failed ({codes}); their rows say why", errors=tally.errors,
                                         records=tally.records, codes=codes).render() + "\n")
    return 1 if tally.errors else 0


def read_notes(name: str, fmt: str, pos: BytesRead, verbose: bool, first_sheet: bool = True) -> list[str]:
    """What stderr says of how a file was read: a workbook's sheets left out when `--sheet` chose none (always),
    and with `verbose` a CSV file's encoding and the sheets read."""
    notes: list[Text] = []
    if pos.sheets is not None:
        read, others = pos.sheets
        if verbose:
            notes.append(N_("{name}: read sheet(s) {sheets}", name=name, sheets=", ".join(read)))
        if others and first_sheet:
            notes.append(N_("{name}: the workbook's other sheet(s) {others} were not read (--sheet NAME or --sheet all reads them)",
                            name=name, others=", ".join(others)))
    elif verbose and fmt == "csv":
        notes.append(N_("{name}: read as {encoding}", name=name, encoding=ENCODING_NAMES[pos.encoding]))
    return [note.render() for note in notes]


STOP_GRACE = 10.0  # seconds a run asked to stop may take to reach the end of its chunk before it ends anyway


@contextmanager
def stop_on_signals() -> Iterator[Callable[[], int | None]]:
    """For the length of a run: SIGINT, SIGTERM and SIGHUP ask it to stop, and the function given
    says which came first (None: none). The run stops between two chunks, never in a row
    (run_batch's `stop`), so the handler only takes note, and puts the signals' own handling back:
    a second one ends the run at once. A run that cannot reach the end of its chunk within
    STOP_GRACE seconds (its output blocked: nobody reads the pipe) ends anyway, saying so on
    stderr with how to find where to resume. Outside the main thread, where signal handlers cannot
    be set, nothing asks."""
    import signal
    import threading

    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    done = threading.Event()

    def end_anyway(signum: int) -> None:
        if done.wait(STOP_GRACE):
            return
        name = signal.Signals(signum).name
        message = N_("stopped by {signal}; the output could not be written for {seconds:g} s (is anything reading it?): the rows "
                     "written end at its last line break, and a run resumes from the line after the last row's `line`",
                     signal=name, seconds=STOP_GRACE)
        with suppress(Exception):
            sys.stderr.write(f"mjcalc: error [interrupted]: {message.render()}\n")
            sys.stderr.flush()
        os._exit(128 + signum)

    def note(signum: int, frame: object) -> None:
        if not received:
            for number, handler in before.items():
                signal.signal(number, handler)
            threading.Thread(target=end_anyway, args=(signum,), daemon=True).start()
        received.append(signum)

    before = {number: signal.signal(number, note) for number in STOP_SIGNALS}
    try:
        yield lambda: received[0] if received else None
    finally:
        done.set()
        for number, handler in before.items():
            signal.signal(number, handler)


def _extra_columns(items: Iterator[RawRecord]) -> tuple[Iterator[RawRecord], tuple[str, ...]]:
    """A CSV input's columns that are not fields (from its first row read), and the items unchanged."""
    ahead: list[RawRecord] = []
    columns: tuple[str, ...] = ()
    for item in items:
        ahead.append(item)
        if item[1] == CSV:
            columns = tuple(k for k in item[2] if k not in record_kinds())
            break
    return chain(ahead, items), columns


def _to_a_file(stream: IO[str]) -> bool:
    """Whether `stream` is a regular file: rows nobody reads as they come, so stderr counts the failures."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):  # no descriptor (a test's buffer)
        return False


def pattern_names(tally: Tally, defaults: Defaults) -> dict[str, tuple[str, str]]:
    """Each pattern key the summary counts, with its (zh, en) names from the rulesets that found it."""
    from ..api import resolve_ruleset
    from ..rules.ruleset import Ruleset

    names: dict[str, tuple[str, str]] = {}
    for variant in tally.wins_by_variant:
        rs: Ruleset[Any, Any, Any] | None
        try:
            rs = resolve_ruleset(variant, None, defaults.overrides)
        except MjcalcError:
            try:  # a --rules file's own name
                rs = resolve_ruleset(None, defaults.rules, defaults.overrides) if defaults.rules else None
            except MjcalcError:
                rs = None
        if rs is None:
            continue
        for key in tally.patterns:
            if key not in names and (key in rs.patterns or key in rs.labels):
                names[key] = rs.label(key)
    return names
