"""A workbook (.xlsx) read as a CSV file is read, and rows written as one: openpyxl, streaming.

A sheet is read as `csv_reader.read_csv` reads a CSV file: its first row that is not blank
names the columns, each further row is a record (a mapping of column to cell text) at its row
number, a blank row is no record, and a row that cannot be read is an error item that spoils
only itself. Cells become the text a CSV cell holds: a number as written (`30`, not `30.0`), a
date as ISO (`2026-12-05`, with `T20:30:00` when it has a time), a yes/no cell `true`/`false`.

openpyxl reads in read-only mode, a row at a time, so memory stays flat however long a sheet
is (`bench/xlsx_memory.py`); it is imported only when a workbook is read or written.
"""

from __future__ import annotations

import datetime as dt
import io
import warnings
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from ..core.errors import InputError, shown
from .items import CSV, ERR, RECORD_LIMIT, BytesRead, RawRecord, too_large

ALL = "all"  # --sheet all: every sheet, in the workbook's order
MAX_UNPACKED = 1 << 30  # bytes a workbook may unpack to (1 GiB, by what its zip says): a zip bomb is refused before it is read
XLSX_SUFFIXES = (".xlsx", ".xlsm")
ZIP_MAGIC = b"PK\x03\x04"


def is_xlsx(name: str, head: bytes = b"") -> bool:
    """A workbook: by its name (`.xlsx`, `.xlsm`), or, for stdin or a name without one, a zip's first bytes."""
    return name.lower().endswith(XLSX_SUFFIXES) or head.startswith(ZIP_MAGIC)


def _openpyxl() -> Any:
    try:
        import openpyxl
    except ImportError:
        raise InputError("missing_package", "reading or writing a workbook (.xlsx) needs openpyxl: pip install openpyxl") from None
    return openpyxl


class Workbook:
    """A workbook open for reading (read-only), and the sheets `--sheet` chose: one by name, the first
    (None), or every one (`all`). `others` are the sheets left out, for the caller to say so."""

    def __init__(self, source: str | IO[bytes], name: str, sheet: str | None = None) -> None:
        openpyxl = _openpyxl()
        try:
            with zipfile.ZipFile(source) as archive:
                unpacked = sum(info.file_size for info in archive.infolist())
            if not isinstance(source, str):
                source.seek(0)
            if unpacked > MAX_UNPACKED:
                raise InputError("bad_xlsx", "{name}: the workbook unpacks to {size:,} bytes, more than {limit:,}", name=name, size=unpacked,
                                 limit=MAX_UNPACKED)
            with warnings.catch_warnings():  # "no default style" and the like: nothing a reader of cells needs
                warnings.simplefilter("ignore")
                self.book = openpyxl.load_workbook(source, read_only=True, data_only=True)
        except InputError:
            raise
        except Exception as exc:  # openpyxl raises what its zip and XML readers raise
            raise InputError("bad_xlsx", "{name}: not a workbook that can be read ({reason})", name=name,
                             reason=shown(str(exc) or type(exc).__name__)) from None
        names: list[str] = list(self.book.sheetnames)
        if sheet is None:
            self.sheets = names[:1]
        elif sheet == ALL:
            self.sheets = names
        elif sheet in names:
            self.sheets = [sheet]
        else:
            self.close()
            raise InputError("unknown_sheet", "{name}: --sheet {sheet}: the workbook has no such sheet; its sheets are {sheets} (or --sheet all)",
                             name=name, sheet=shown(sheet), sheets=", ".join(names))
        self.others = [n for n in names if n not in self.sheets]
        self.name = name

    def rows(self, sheet: str, pos: BytesRead | None = None) -> Iterator[RawRecord]:
        """The records of one sheet, as `read_csv` gives a CSV file's: (row number, CSV, {column: text}) or an error item."""
        ws = self.book[sheet]
        ws.reset_dimensions()  # a writer's <dimension> may be wrong: read every row the sheet holds, never fewer
        header: list[str] | None = None
        try:
            for number, values in enumerate(ws.iter_rows(values_only=True), 1):
                cells = [_text(v) for v in values]
                size = sum(map(len, cells))
                if pos is not None:
                    pos.bytes += size
                if not any(cells):
                    continue  # a blank row is not a record
                if header is None:
                    while cells and not cells[-1]:
                        cells.pop()  # a header's empty cells on the right are no columns
                    repeated = sorted({c for c in cells if cells.count(c) > 1})
                    if repeated or "" in cells:
                        problem = f"the header repeats column(s) {', '.join(repeated)}" if repeated else "the header has a column without a name"
                        yield (number, ERR, ("bad_csv", problem))
                        return
                    header = cells
                    continue
                if size > RECORD_LIMIT:
                    yield (number, ERR, too_large())
                elif any(cells[len(header):]):
                    yield (number, ERR, ("bad_csv_row", f"the row has a cell beyond the header's {len(header)} columns"))
                else:
                    cells += [""] * (len(header) - len(cells))
                    yield (number, CSV, dict(zip(header, cells)))
        except Exception as exc:  # a sheet's XML that cannot be read past this row
            raise InputError("bad_xlsx", "{name}: sheet {sheet}: cannot be read ({reason})", name=self.name, sheet=sheet,
                             reason=shown(str(exc) or type(exc).__name__)) from None

    def close(self) -> None:
        self.book.close()


def _text(value: Any) -> str:
    """A cell's value as the text a CSV cell would hold."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1 << 53:
        return str(int(value))
    if isinstance(value, dt.datetime):
        if value.time() == dt.time():
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def read_xlsx(source: str | IO[bytes], pos: BytesRead, sheet: str | None = None, name: str = "-") -> Iterator[RawRecord]:
    """The records of the chosen sheets, one after another (each with its own header row; row numbers count
    within each sheet): `mjcalc batch`'s reader of a workbook."""
    book = Workbook(source, name, sheet)
    pos.sheets = (book.sheets, book.others)
    try:
        for one in book.sheets:
            yield from book.rows(one, pos)
    finally:
        book.close()


def write_xlsx(target: str | IO[bytes], rows: Iterable[Sequence[Any]], title: str = "mjcalc") -> None:
    """Rows of cells as a one-sheet workbook: text stays text (a cell starting with `=` is never a formula),
    numbers stay numbers. Made in write-only mode, a row at a time, then written to `target` whole (a file
    that cannot be written is an OSError before any of it is)."""
    openpyxl = _openpyxl()
    from openpyxl.cell import WriteOnlyCell

    book = openpyxl.Workbook(write_only=True)
    ws = book.create_sheet(title=title[:31])
    for row in rows:
        cells = []
        for value in row:
            cell = WriteOnlyCell(ws, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # never a formula, whatever it starts with
            cells.append(cell)
        ws.append(cells)
    made = io.BytesIO()
    book.save(made)
    if isinstance(target, str):
        with open(target, "wb") as out:
            out.write(made.getvalue())
    else:
        target.write(made.getvalue())
