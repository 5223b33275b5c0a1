"""Read batch input as a stream of items, never the whole file at once, never one record unbounded.

An item is `(line, kind, payload)`: `line` is the 1-based line where the record
starts; `kind` says what `payload` is: `LINES` (a block of raw JSON Lines lines,
the first at `line`, parsed later, possibly in a worker process), `JSON` (one such
line), `CSV` (a mapping of column to cell text), `OBJ` (an already parsed YAML
value) or `ERR` (the `(code, message)` of an InputError, for a record that could not
even be read; a tuple, since exceptions do not pickle well to worker processes). Blank
lines are not records: readers skip them, and so does whoever expands a block.

Every reader goes on after a bad record: one record is at most `RECORD_LIMIT`
bytes (a longer one is an error item, and is skipped without being held in
memory), bytes that are not UTF-8 spoil only the record that holds them, a CSV
quote left open spoils only the row that opens it, a YAML item that cannot be parsed
spoils only itself (reading goes on at the next `- ` at column 0), and a YAML record
nested too deeply or expanding (through aliases) beyond the limit is an error item.
CSV and YAML lines end at LF, CR LF or a lone CR.
"""

from __future__ import annotations

import csv
import re
from collections import deque
from collections.abc import Iterator
from typing import IO, Any

from ..core.errors import InputError, MjcalcError

JSON, LINES, CSV, OBJ, ERR = "json", "lines", "csv", "obj", "err"
BLOCK = 500  # JSON Lines per block
BLOCK_BYTES = 1 << 21  # ... or fewer: a block ends at the line that brings it to 2 MiB
READ_SIZE = 1 << 16
RECORD_LIMIT = 1 << 20  # bytes in one record (1 MiB): a longer record is an error row
YAML_DEPTH = 64  # nesting of collections in one YAML record
FORMATS = ("jsonl", "yaml", "csv")
_EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".yaml": "yaml", ".yml": "yaml", ".csv": "csv"}

RawRecord = tuple[int, str, Any]


def too_large() -> tuple[str, str]:
    return ("record_too_large", f"the record is longer than {RECORD_LIMIT:,} bytes (the limit for one record)")


class BytesRead:
    """How many bytes a reader has consumed (for the progress bar)."""

    __slots__ = ("bytes",)

    def __init__(self) -> None:
        self.bytes = 0


def detect_format(name: str, explicit: str | None) -> str:
    """`--input-format` if given, else the file's extension; stdin (`-`) defaults to JSON Lines."""
    if explicit is not None:
        if explicit not in FORMATS:
            raise InputError("bad_input_format", "--input-format must be one of {formats}, not {explicit!r}", formats=', '.join(FORMATS), explicit=explicit)
        return explicit
    if name == "-":
        return "jsonl"
    dot = name.rfind(".")
    fmt = _EXTENSIONS.get(name[dot:].lower()) if dot >= 0 else None
    if fmt is None:
        raise InputError(
            "bad_input_format",
            "cannot tell the format of {name!r} from its extension (.jsonl, .ndjson, .yaml, .yml, .csv); give --input-format", name=name,
        )
    return fmt


def read_items(stream: IO[bytes], fmt: str, pos: BytesRead | None = None, block: int = BLOCK, read_size: int = READ_SIZE) -> Iterator[RawRecord]:
    """The records of `stream` (opened in binary mode) in `fmt`, in order."""
    pos = pos or BytesRead()
    if fmt == "jsonl":
        return read_jsonl(stream, pos, block, read_size)
    if fmt == "csv":
        return read_csv(stream, pos)
    return read_yaml(stream, pos)


def read_jsonl(
    stream: IO[bytes], pos: BytesRead, block: int = BLOCK, read_size: int = READ_SIZE, block_bytes: int = BLOCK_BYTES,
) -> Iterator[RawRecord]:
    """Blocks of up to `block` lines, as one bytes object each (cheap to send to a
    worker process); whoever scores a block splits it, parses each line and skips
    the blank ones. A block ends early at the line that brings it to `block_bytes`,
    so large records make small blocks. A line longer than RECORD_LIMIT is an error
    item, skipped as it is read."""
    line = 1  # the number of pending[0]
    pending: list[bytes] = []
    held = 0  # bytes in pending, with their line ends
    tail: list[bytes] = []  # a line not yet ended, in pieces (joined once, when it ends)
    tail_size = 0
    skipping = False  # inside an over-long line, already reported
    while data := stream.read(read_size):
        pos.bytes += len(data)
        if skipping:
            cut = data.find(b"\n")
            if cut < 0:
                continue
            data, skipping = data[cut + 1 :], False
        if b"\n" in data:
            lines = (b"".join([*tail, data]) if tail else data).split(b"\n")
            last = lines.pop()
            tail, tail_size = ([last] if last else []), len(last)
            pending.extend(lines)
            held += sum(map(len, lines)) + len(lines)
            while len(pending) >= block or held >= block_bytes:
                count = block if held < block_bytes else _block_end(pending, block, block_bytes)
                size = sum(map(len, pending[:count])) + count
                yield (line, LINES, b"\n".join(pending[:count]))
                line += count
                held -= size
                del pending[:count]
        elif data:
            tail.append(data)
            tail_size += len(data)
        if tail_size > RECORD_LIMIT:
            if pending:
                yield (line, LINES, b"\n".join(pending))
                line += len(pending)
                pending, held = [], 0
            yield (line, ERR, too_large())
            line += 1
            tail, tail_size, skipping = [], 0, True
    if tail:
        pending.append(b"".join(tail))
    if pending:
        yield (line, LINES, b"\n".join(pending))


def _block_end(lines: list[bytes], block: int, block_bytes: int) -> int:
    """How many of `lines` make a block: up to `block`, ending at the line that brings it to `block_bytes`."""
    size = 0
    for count, text in enumerate(lines[:block], 1):
        size += len(text) + 1
        if size >= block_bytes:
            return count
    return min(block, len(lines))


def item_size(item: RawRecord) -> int:
    """About how many bytes an item holds (for bounding the bytes in flight)."""
    kind, payload = item[1], item[2]
    if kind in (LINES, JSON):
        return len(payload)
    if kind == CSV:
        return sum(map(len, payload.values()))
    if kind == OBJ:
        return _value_size(payload)
    return 64


def _value_size(value: Any) -> int:
    """Characters of text in a parsed YAML value, and a few for every other scalar."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(_value_size(k) + _value_size(v) for k, v in value.items())
    if isinstance(value, list):
        return sum(map(_value_size, value))
    return 8


# --- CSV -------------------------------------------------------------------------------


_HEAD = 16  # bytes kept of a line longer than the record limit (enough to tell what starts it)


def _raw_lines(stream: IO[bytes], pos: BytesRead) -> Iterator[tuple[bytes, int]]:
    """(bytes, length) of each physical line with its end: LF, CR LF or a lone CR (old Mac files).

    A line longer than RECORD_LIMIT (with its end) is given as its first _HEAD bytes
    and its length as RECORD_LIMIT + 1; the rest is skipped as it is read, never held.
    """
    buf, start, eof, skipping = b"", 0, False, False
    lf = cr = -1  # the next LF and CR at or after `start`, len(buf) if there is none (-1: not looked for yet)
    while True:
        if lf < start:
            lf = buf.find(b"\n", start) % (len(buf) + 1)  # -1 (none) becomes len(buf)
        if cr < start:
            cr = buf.find(b"\r", start) % (len(buf) + 1)
        cut = min(lf, cr)
        end = cut + 1 if cut == lf else cut + 2 if buf[cut + 1 : cut + 2] == b"\n" else cut + 1
        if cut < len(buf) and (end < len(buf) or eof or cut == lf or end == cut + 2):  # a final CR may be half of CR LF
            if skipping:
                skipping = False
            elif end - start > RECORD_LIMIT:
                yield buf[start : start + _HEAD], RECORD_LIMIT + 1
            else:
                yield buf[start:end], end - start
            start = end
            continue
        if eof:
            if start < len(buf) and not skipping:
                size = len(buf) - start
                yield (buf[start : start + _HEAD], RECORD_LIMIT + 1) if size > RECORD_LIMIT else (buf[start:], size)
            return
        if not skipping and len(buf) - start > RECORD_LIMIT:
            yield buf[start : start + _HEAD], RECORD_LIMIT + 1
            skipping = True
        buf = (b"\r" if buf.endswith(b"\r") else b"") if skipping else buf[start:]
        start, lf, cr = 0, -1, -1
        data = stream.read(max(READ_SIZE, len(buf)))  # reads grow with a long line: copying stays linear
        pos.bytes += len(data)
        eof = not data
        buf += data


Line = tuple[int, str, str | None, int]  # (number, text, problem, bytes)
_BREAKS = ("\x85", "\u2028", "\u2029")  # line breaks to YAML besides CR and LF


def _physical_lines(stream: IO[bytes], pos: BytesRead, yaml_breaks: bool = False) -> Iterator[Line]:
    """(number, text, problem, bytes) per line, each read with a bound; problem is None,
    'encoding' or 'size' (the text is then the line's first characters only).

    With `yaml_breaks`, the numbers also count the line breaks YAML knows inside a line
    (NEL, LS, PS), as PyYAML's own line numbers do."""
    number = 0
    for raw, size in _raw_lines(stream, pos):
        number += 1
        problem = "size" if size > RECORD_LIMIT else None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            problem, text = problem or "encoding", raw.decode("utf-8", "replace")
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        yield number, text, problem, size
        if yaml_breaks and not text.isascii():
            number += sum(text.count(b) for b in _BREAKS)


def read_csv(stream: IO[bytes], pos: BytesRead) -> Iterator[RawRecord]:
    """A header row naming fields, then one record per row (a quoted cell may span lines).

    A line ends at LF, CR LF or a lone CR (old Mac exports), and each counts one line.
    A row is complete when its quotes are balanced. A row that cannot be parsed,
    has the wrong number of cells, is not UTF-8, or exceeds RECORD_LIMIT (an unclosed
    quote, say) is an error item at the line where it starts; when such a row spans
    several lines, reading starts again at its second line, so a stray quote never
    swallows the records after it.
    """
    if csv.field_size_limit() < RECORD_LIMIT:
        csv.field_size_limit(RECORD_LIMIT)  # process-wide; a record is bounded anyway
    source = _physical_lines(stream, pos)
    again: deque[Line] = deque()  # lines to read again after a bad row
    header: list[str] | None = None
    header_error: tuple[str, str] | None = None
    rows: list[Line] = []
    quotes = size = 0

    def restart(error: tuple[str, str]) -> RawRecord:
        nonlocal quotes, size
        start = rows[0][0]
        again.extendleft(reversed(rows[1:]))
        rows.clear()
        quotes = size = 0
        return (start, ERR, error)

    while True:
        if again:
            entry: Line | None = again.popleft()
        else:
            entry = next(source, None)
        if entry is None:
            if not rows:
                return
            yield restart(("bad_csv", "CSV cannot be read: a quote is never closed"))
            continue
        _, text, problem, _ = entry
        if not rows and not text.strip() and problem is None:
            continue  # a blank line is not a record
        rows.append(entry)
        if problem == "size":
            yield restart(too_large())
            continue
        quotes += text.count('"')
        size += len(text)
        if quotes % 2:
            if size > RECORD_LIMIT:
                yield restart(too_large())
            continue
        start = rows[0][0]
        try:
            parsed = list(csv.reader(["".join(e[1] for e in rows)], strict=True))
        except csv.Error as exc:
            yield restart(("bad_csv", f"CSV cannot be read: {exc}"))
            continue
        if len(parsed) != 1:  # not one row: a line break the lines above did not see
            yield restart(("bad_csv", "CSV cannot be read: the row does not end where its quotes close"))
            continue
        row = parsed[0]
        if header is None:
            header = row
            repeated = sorted({c for c in header if header.count(c) > 1})
            if repeated:
                header_error = ("bad_csv", f"the header repeats column(s) {', '.join(repeated)}")
                yield restart(header_error)
            else:
                rows.clear()
                quotes = size = 0
            continue
        if header_error is not None:
            yield restart(header_error)
        elif any(e[2] == "encoding" for e in rows):
            yield restart(("bad_encoding", "the record is not valid UTF-8"))
        elif len(row) != len(header):
            yield restart(("bad_csv_row", f"the row has {len(row)} cells; the header has {len(header)} columns"))
        else:
            rows.clear()
            quotes = size = 0
            yield (start, CSV, dict(zip(header, row)))


# --- YAML ------------------------------------------------------------------------------

# What YAML 1.1 does not allow in a stream (PyYAML's Reader.NON_PRINTABLE)
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_BREAK = re.compile("\r\n?|[\n\x85\u2028\u2029]")  # a line break, to YAML
_SPACE = ("", " ", "\t", "\r", "\n", "\x85", "\u2028", "\u2029")  # what may follow `-`, `---`, `...` (PyYAML)


def _checked(text: str, problem: str | None) -> tuple[str, str | None]:
    """A YAML line and its problem: a character YAML forbids (replaced, so the parser goes on),
    or flow collections nested beyond YAML_DEPTH (cut, see `_flatten`)."""
    if problem is None and _NON_PRINTABLE.search(text):
        return _NON_PRINTABLE.sub("\ufffd", text), "character"
    if problem is None and text.count("[") + text.count("{") > YAML_DEPTH:
        found, flat = _flatten(text)
        return flat, found
    return text, problem


def _plain(entry: Line) -> Line:
    """A blank line or a comment, with a character YAML forbids replaced and named as its problem."""
    if entry[2] is None and _NON_PRINTABLE.search(entry[1]):
        return (entry[0], _NON_PRINTABLE.sub("\ufffd", entry[1]), "character", entry[3])
    return entry


def _kind(text: str) -> str:
    """What a line is at the top level of a YAML list: entry (`- ` at column 0), start or end
    (a document marker), blank, comment (`#` at column 0), directive, or more (anything else)."""
    first = text[:1]
    if first == "-":
        if text[1:2] in _SPACE:
            return "entry"
        if text[:3] == "---" and text[3:4] in _SPACE:
            return "start"
    elif first == "." and text[:3] == "..." and text[3:4] in _SPACE:
        return "end"
    elif first == "#":
        return "comment"
    elif first == "%":
        return "directive"
    return "blank" if not text.strip(" \t\r\n") else "more"


class _Text:
    """Lines as text for PyYAML, read as it asks: a line that is not UTF-8, holds a character
    YAML forbids, or is longer than RECORD_LIMIT is replaced (so the parser goes on) and
    remembered, to make the record holding it an error."""

    def __init__(self, lines: Iterator[Line]) -> None:
        self.lines = lines
        self.bad: dict[int, str] = {}  # 0-based line -> problem
        self.buffer = ""

    def read(self, size: int = -1) -> str:
        while len(self.buffer) < max(size, 1):
            entry = next(self.lines, None)
            if entry is None:
                break
            number, text, problem, _ = entry
            text, problem = _checked(text, problem)
            if problem is not None:
                self.bad[number - 1] = problem
                if problem == "size":
                    text = "\n"
            self.buffer += text
        out, self.buffer = (self.buffer[:size], self.buffer[size:]) if size >= 0 else (self.buffer, "")
        return out


def _flatten(text: str) -> tuple[str | None, str]:
    """A line whose flow collections nest more than YAML_DEPTH deep, cut at its first
    bracket (PyYAML's scanner takes time quadratic in that depth); else the line as it is."""
    depth = deepest = 0
    quote = ""
    for char in text:
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest <= YAML_DEPTH:
        return None, text
    cut = min(i for i in (text.find("["), text.find("{")) if i >= 0)
    return "nesting", text[:cut] + "~\n"


class _TooDeep(Exception):
    pass


_BAD_TEXT = {
    "nesting": ("bad_record", f"the record is nested more than {YAML_DEPTH} deep"),
    "encoding": ("bad_encoding", "the record is not valid UTF-8"),
    "character": ("bad_encoding", "the record holds a control character that YAML does not allow"),
}
_EXPANDED = ("record_too_large", f"the record is larger than {RECORD_LIMIT:,} characters with its aliases expanded "
             "(the limit for one record)")
_ORPHAN = ("bad_yaml", f"not valid YAML: a line in no list item (more than {RECORD_LIMIT:,} bytes of blank lines "
           "and comments lie between it and the item above)")
_ANOTHER = ("bad_yaml", "a YAML batch is one document; found another")


def _bad_line(problem: str) -> tuple[str, str]:
    return too_large() if problem == "size" else _BAD_TEXT.get(problem, ("bad_yaml", problem))


def _weight(node: Any, memo: dict[int, int], limit: int) -> int:
    """Nodes plus scalar characters of `node` with every alias expanded (shared nodes memoised)."""
    known = memo.get(id(node))
    if known is not None:
        return known
    if isinstance(node.value, str):
        total = 1 + len(node.value)
    else:
        total = 1
        for child in node.value:
            for part in child if isinstance(child, tuple) else (child,):
                total += _weight(part, memo, limit)
                if total > limit:
                    break
            if total > limit:
                break
    memo[id(node)] = total
    return total


def _loader_class() -> Any:
    import yaml

    from ..rules.loader import _construct_mapping

    class Loader(yaml.SafeLoader):
        """Pure-Python SafeLoader (it composes one node at a time), with a nesting bound;
        duplicate keys are errors."""

        depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            self.depth += 1
            try:
                if self.depth > YAML_DEPTH:
                    raise _TooDeep
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    return Loader


def _value(loader: Any, node: Any, line: int) -> RawRecord:
    """The record of one composed list item: its value, or why it has none."""
    import yaml

    if _weight(node, {}, RECORD_LIMIT) > RECORD_LIMIT:
        return (line, ERR, _EXPANDED)
    try:
        return (line, OBJ, loader.construct_document(node))
    except MjcalcError as exc:  # duplicate key
        return (line, ERR, ("bad_record", exc.message))
    except yaml.YAMLError as exc:
        return (line, ERR, ("bad_yaml", f"YAML value cannot be read: {exc}"))
    except (ValueError, RecursionError, MemoryError) as exc:  # e.g. an integer of 5,000 digits
        return (line, ERR, ("bad_yaml", f"YAML value cannot be read: {type(exc).__name__}"))


def read_yaml(stream: IO[bytes], pos: BytesRead) -> Iterator[RawRecord]:
    """A YAML list of records, one list item at a time so memory stays flat.

    A list written at column 0 (`- ` starting a line) is cut into its items first, and
    each is parsed on its own (anchors carry over), so a syntax error spoils only its
    own item: reading starts again at the next `- ` at column 0. Any other document (a
    flow list, an indented list, directives) is read as one stream of events.
    """
    lines = _physical_lines(stream, pos, yaml_breaks=True)
    head: list[Line] = []  # lines before the first item, but blank lines and comments without a problem
    starts = 0
    entry: Line | None = None
    for entry in lines:
        kind = _kind(entry[1])
        bare = kind in ("blank", "comment") or (kind == "start" and not starts and _kind(entry[1][3:].lstrip(" \t")) in ("blank", "comment"))
        if not bare:
            break
        entry = _plain(entry)
        starts += kind == "start"
        if kind == "start" or entry[2] is not None:
            head.append(entry)
    else:
        entry = None
    if entry is not None and _kind(entry[1]) == "entry":
        for number, _, problem, _ in head:
            if problem is not None:
                yield (number, ERR, _bad_line(problem))
        yield from _read_items(entry, lines)
        return

    def replay() -> Iterator[Line]:
        kept = {e[0]: e for e in head}
        for number in range(1, (head[-1][0] if head else 0) + 1):
            yield kept.get(number, (number, "\n", None, 1))
        if entry is not None:
            yield entry
        yield from lines

    yield from _read_document(_Text(replay()))


class _Item:
    """The list item being read: its lines (until it grows too large), and the blank lines and
    comments after it, which are its own only if more of it follows."""

    __slots__ = ("line", "node_line", "orphan", "problem", "size", "texts", "trail", "trail_size")

    def __init__(self, entry: Line, orphan: bool = False) -> None:
        self.line = entry[0]
        self.node_line: int | None = None
        self.texts: list[str] | None = [] if not orphan else None
        self.size = 0
        self.problem: str | None = None
        self.orphan = orphan
        self.trail: list[Line] = []
        self.trail_size = 0
        self.add(entry, entry[1][1:])

    def add(self, entry: Line, content: str) -> None:
        number, text, problem, size = entry
        self.size += size
        if self.texts is not None:
            text, problem = _checked(text, problem)
            self.texts.append(text)
        if self.node_line is None and content.strip(" \t\r\n") and not content.lstrip(" \t").startswith("#"):
            self.node_line = number
        if problem == "size" or self.size > RECORD_LIMIT:
            self.problem, self.texts = "size", None
        elif problem is not None and self.problem is None:
            self.problem = problem

    def absorb(self, entry: Line) -> None:
        """A line that continues the item: the blank lines and comments before it are the item's."""
        for held in self.trail:
            self.add(held, held[1])
        self.trail.clear()
        self.trail_size = 0
        self.add(entry, entry[1])


def _read_items(first: Line, lines: Iterator[Line]) -> Iterator[RawRecord]:
    """The items of a list written at column 0, from its first item's line on."""
    loader_class = _loader_class()
    anchors: dict[Any, Any] = {}
    item: _Item | None = _Item(first)

    def finish(done: _Item) -> Iterator[RawRecord]:
        line = done.node_line or done.line
        if done.orphan:
            yield (done.line, ERR, _ORPHAN)
        elif done.problem is not None:
            yield (line, ERR, _bad_line(done.problem))
        else:
            assert done.texts is not None
            trail = [t[1] if t[2] is None else "\n" for t in done.trail]
            yield from _parse_item("".join(done.texts + trail), done.line, line, loader_class, anchors)
        for number, _, problem, _ in done.trail:
            if problem is not None:
                yield (number, ERR, _bad_line(problem))

    for entry in lines:
        kind = _kind(entry[1])
        if kind == "entry":
            if item is not None:
                yield from finish(item)
            item = _Item(entry)
        elif kind in ("start", "end"):
            if item is not None:
                yield from finish(item)
            yield from _after_list(entry, kind, lines)
            return
        elif kind in ("blank", "comment"):
            entry = _plain(entry)
            if item is None:  # outside any item
                if entry[2] is not None:
                    yield (entry[0], ERR, _bad_line(entry[2]))
                continue
            item.trail.append(entry)
            item.trail_size += entry[3]
            if item.trail_size > RECORD_LIMIT:  # too far from the item to be part of it
                yield from finish(item)
                item = None
        elif item is None:
            item = _Item(entry, orphan=True)
        else:
            item.absorb(entry)
    if item is not None:
        yield from finish(item)


def _after_list(marker: Line, kind: str, lines: Iterator[Line]) -> Iterator[RawRecord]:
    """After `---` or `...` at column 0: only blank lines and comments may follow the end of the document."""
    entry: Line | None = marker
    while entry is not None:
        if kind == "start" or kind not in ("end", "blank", "comment"):
            yield (entry[0], ERR, _ANOTHER)
            return
        problem = _plain(entry)[2]
        if problem is not None:
            yield (entry[0], ERR, _bad_line(problem))
        entry = next(lines, None)
        kind = _kind(entry[1]) if entry is not None else ""


def _parse_item(text: str, first: int, line: int, loader_class: Any, anchors: dict[Any, Any]) -> Iterator[RawRecord]:
    """The records of one list item's text, which starts at line `first` (rows say `line` if it fails).

    Usually one; more only where YAML sees a line break this reader does not (NEL, LS, PS).
    """
    import yaml

    loader = loader_class(text)
    loader.line = first - 1  # marks (and so messages and rows) count the file's lines
    loader.anchors = anchors
    found: list[RawRecord] = []
    try:
        loader.get_event()  # stream start
        loader.get_event()  # document start
        loader.get_event()  # sequence start: the text starts with "- " at column 0
        while not loader.check_event(yaml.SequenceEndEvent):
            start = loader.peek_event().start_mark.line + 1
            try:
                node = loader.compose_node(None, None)
            except _TooDeep:
                yield (start, ERR, ("bad_record", f"the record is nested more than {YAML_DEPTH} deep"))
                return
            found.append((start, OBJ, node))
        loader.get_event()
        loader.get_event()  # document end
        loader.get_event()  # stream end
        records = [_value(loader, node, start) for start, _, node in found]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = None if mark is None else min(mark.line + 1, first + len(_BREAK.findall(text.rstrip())))  # not past its end
        where = f" (line {at})" if at is not None and at != line else ""
        yield (line, ERR, ("bad_yaml", f"not valid YAML: {exc.problem or exc.context}{where}"))
        return
    except yaml.YAMLError as exc:
        yield (line, ERR, ("bad_yaml", f"not valid YAML: {exc}"))
        return
    finally:
        loader.dispose()
    yield from records


def _read_document(text: _Text) -> Iterator[RawRecord]:
    """A YAML document that is not a list at column 0, composed one item at a time from one stream of events."""
    import yaml

    loader: Any = _loader_class()(text)  # PyYAML's event API is untyped
    claimed = -1  # bad lines up to here belong to records already given

    def bad_text(upto: int) -> tuple[str, str] | None:
        nonlocal claimed
        found = [text.bad[n] for n in text.bad if claimed < n <= upto]
        claimed = max(claimed, upto)
        if "size" in found:
            return too_large()
        return _BAD_TEXT[found[0]] if found else None

    def leftover() -> Iterator[RawRecord]:
        """Bad lines that no record held (an over-long line that was the whole list, say)."""
        for number in sorted(n for n in text.bad if n > claimed):
            yield (number + 1, ERR, _bad_line(text.bad[number]))

    def skip_rest(open_collections: int) -> None:
        while open_collections:
            event = loader.get_event()
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                open_collections += 1
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                open_collections -= 1

    try:
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            yield from leftover()
            return
        loader.get_event()  # document start
        if not loader.check_event(yaml.SequenceStartEvent):
            event = loader.peek_event()
            if isinstance(event, yaml.ScalarEvent) and event.value in ("", "~", "null"):
                yield from leftover()
                return  # an empty document: no records
            yield (event.start_mark.line + 1, ERR, ("bad_yaml", "a YAML batch must be a list of records"))
            return
        loader.get_event()
        index = 0
        while not loader.check_event(yaml.SequenceEndEvent):
            line = loader.peek_event().start_mark.line + 1
            try:
                node = loader.compose_node(None, index)
            except _TooDeep:
                skip_rest(YAML_DEPTH)
                bad_text(loader.peek_event().start_mark.line)
                yield (line, ERR, ("bad_record", f"the record is nested more than {YAML_DEPTH} deep"))
                continue
            index += 1
            problem = bad_text(node.end_mark.line)
            if problem is not None:
                yield (line, ERR, problem)
                continue
            if node.end_mark.index - node.start_mark.index > RECORD_LIMIT:
                yield (line, ERR, _EXPANDED)
                continue
            yield _value(loader, node, line)
        loader.get_event()  # sequence end
        loader.get_event()  # document end
        yield from leftover()
        if not loader.check_event(yaml.StreamEndEvent):
            event = loader.peek_event()
            yield (event.start_mark.line + 1, ERR, _ANOTHER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        yield (line, ERR, ("bad_yaml", f"not valid YAML: {exc.problem or exc.context}"))
    except yaml.YAMLError as exc:
        yield (0, ERR, ("bad_yaml", f"not valid YAML: {exc}"))
    finally:
        loader.dispose()
