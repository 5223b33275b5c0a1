"""YAML batch input: a list of records, one item at a time so that memory stays flat.

A YAML item that cannot be parsed spoils only itself (reading goes on at the next `- ` at
column 0), and a YAML record nested too deeply or expanding (through aliases) beyond the
record limit is an error item. The events are walked by `core/yaml_events.py`, as game
files walk theirs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from ..core.errors import MjcalcError
from ..core.yaml_events import Events, TooDeep, refuse_unreadable_scalars
from .items import ERR, OBJ, RECORD_LIMIT, BytesRead, Line, RawRecord, physical_lines, too_large
from .yaml_lines import BAD_TEXT, BREAK, YAML_DEPTH, Text, bad_line, checked, line_kind, plain

_EXPANDED = ("record_too_large", f"the record is larger than {RECORD_LIMIT:,} characters with its aliases expanded "
             "(the limit for one record)")
_ORPHAN = ("bad_yaml", f"not valid YAML: a line in no list item (more than {RECORD_LIMIT:,} bytes of blank lines "
           "and comments lie between it and the item above)")
_ANOTHER = ("bad_yaml", "a YAML batch is one document; found another")


def _weight(node: Any, memo: dict[Any, int], limit: int) -> int:
    """Nodes plus scalar characters of `node` with every alias expanded (shared nodes memoised: a
    node is found by its identity, its type's own hash)."""
    known = memo.get(node)
    if known is not None:
        return known
    memo[node] = limit + 1  # until it is weighed: a node inside itself (`&a [*a]`) never ends
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
    memo[node] = total
    return total


def _loader_class() -> Any:
    import yaml

    from ..rules.loader import construct_mapping

    class Loader(yaml.SafeLoader):
        """Pure-Python SafeLoader (its marks can start at any line: an item's are the file's); duplicate keys are errors."""

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    refuse_unreadable_scalars(Loader)
    return Loader


def _events(loader: Any, anchors: dict[Any, Any] | None = None) -> Events:
    """A batch's walk: aliases followed (bounded by `_weight`), nesting bounded by YAML_DEPTH."""
    return Events(loader, aliases=True, depth=YAML_DEPTH, anchors=anchors)


def _value(events: Events, node: Any, line: int) -> RawRecord:
    """The record of one composed list item: its value, or why it has none."""
    import yaml

    if _weight(node, {}, RECORD_LIMIT) > RECORD_LIMIT:
        return (line, ERR, _EXPANDED)
    try:
        return (line, OBJ, events.value(node))
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
    lines = physical_lines(stream, pos, yaml_breaks=True)
    head: list[Line] = []  # lines before the first item, but blank lines and comments without a problem
    starts = 0
    entry: Line | None = None
    for entry in lines:
        kind = line_kind(entry[1])
        bare = kind in ("blank", "comment") or (kind == "start" and not starts and line_kind(entry[1][3:].lstrip(" \t")) in ("blank", "comment"))
        if not bare:
            break
        entry = plain(entry)
        starts += kind == "start"
        if kind == "start" or entry[2] is not None:
            head.append(entry)
    else:
        entry = None
    if entry is not None and line_kind(entry[1]) == "entry":
        for number, _, problem, _ in head:
            if problem is not None:
                yield (number, ERR, bad_line(problem))
        yield from _read_items(entry, lines)
        return

    def replay() -> Iterator[Line]:
        kept = {e[0]: e for e in head}
        for number in range(1, (head[-1][0] if head else 0) + 1):
            yield kept.get(number, (number, "\n", None, 1))
        if entry is not None:
            yield entry
        yield from lines

    yield from _read_document(Text(replay()))


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
            text, problem = checked(text, problem)
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
            yield (line, ERR, bad_line(done.problem))
        else:
            assert done.texts is not None
            trail = [t[1] if t[2] is None else "\n" for t in done.trail]
            yield from _parse_item("".join(done.texts + trail), done.line, line, loader_class, anchors)
        for number, _, problem, _ in done.trail:
            if problem is not None:
                yield (number, ERR, bad_line(problem))

    for entry in lines:
        kind = line_kind(entry[1])
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
            entry = plain(entry)
            if item is None:  # outside any item
                if entry[2] is not None:
                    yield (entry[0], ERR, bad_line(entry[2]))
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
        problem = plain(entry)[2]
        if problem is not None:
            yield (entry[0], ERR, bad_line(problem))
        entry = next(lines, None)
        kind = line_kind(entry[1]) if entry is not None else ""


def _parse_item(text: str, first: int, line: int, loader_class: Any, anchors: dict[Any, Any]) -> Iterator[RawRecord]:
    """The records of one list item's text, which starts at line `first` (rows say `line` if it fails).

    Usually one; more only where YAML sees a line break this reader does not (NEL, LS, PS).
    """
    import yaml

    loader = loader_class(text)
    loader.line = first - 1  # marks (and so messages and rows) count the file's lines
    events = _events(loader, anchors)
    found: list[tuple[int, Any]] = []
    try:
        events.begin()  # the text starts with "- " at column 0: a list
        for start in events.entries():
            try:
                found.append((start, events.node()))
            except TooDeep:
                yield (start, ERR, BAD_TEXT["nesting"])
                return
        events.end()
        another = events.another()  # a document YAML sees after a line break this reader does not
        records = [_value(events, node, start) for start, node in found]
        if another is not None:
            records.append((another.line + 1, ERR, _ANOTHER))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = None if mark is None else min(mark.line + 1, first + len(BREAK.findall(text.rstrip())))  # not past its end
        where = f" (line {at})" if at is not None and at != line else ""
        yield (line, ERR, ("bad_yaml", f"not valid YAML: {exc.problem or exc.context}{where}"))
        return
    except yaml.YAMLError as exc:
        yield (line, ERR, ("bad_yaml", f"not valid YAML: {exc}"))
        return
    finally:
        loader.dispose()
    yield from records


def _read_document(text: Text) -> Iterator[RawRecord]:
    """A YAML document that is not a list at column 0, composed one item at a time from one stream of events."""
    import yaml

    loader = _loader_class()(text)
    events = _events(loader)
    claimed = -1  # bad lines up to here belong to records already given

    def bad_text(upto: int) -> tuple[str, str] | None:
        nonlocal claimed
        found = [text.bad[n] for n in text.bad if claimed < n <= upto]
        claimed = max(claimed, upto)
        if "size" in found:
            return too_large()
        return BAD_TEXT[found[0]] if found else None

    def leftover() -> Iterator[RawRecord]:
        """Bad lines that no record held (an over-long line that was the whole list, say)."""
        for number in sorted(n for n in text.bad if n > claimed):
            yield (number + 1, ERR, bad_line(text.bad[number]))

    try:
        first = events.begin()
        if first is None:
            yield from leftover()
            return
        if not isinstance(first, yaml.SequenceStartEvent):
            if isinstance(first, yaml.ScalarEvent) and first.value in ("", "~", "null"):
                yield from leftover()
                return  # an empty document: no records
            yield (first.start_mark.line + 1, ERR, ("bad_yaml", "a YAML batch must be a list of records"))
            return
        for line in events.entries():
            try:
                node = events.node()
            except TooDeep:
                events.skip(YAML_DEPTH)
                bad_text(events.mark().line)
                yield (line, ERR, BAD_TEXT["nesting"])
                continue
            problem = bad_text(node.end_mark.line)
            if problem is not None:
                yield (line, ERR, problem)
                continue
            if node.end_mark.index - node.start_mark.index > RECORD_LIMIT:
                yield (line, ERR, _EXPANDED)
                continue
            yield _value(events, node, line)
        events.end()
        yield from leftover()
        another = events.another()
        if another is not None:
            yield (another.line + 1, ERR, _ANOTHER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        yield (line, ERR, ("bad_yaml", f"not valid YAML: {exc.problem or exc.context}"))
    except yaml.YAMLError as exc:
        yield (0, ERR, ("bad_yaml", f"not valid YAML: {exc}"))
    finally:
        loader.dispose()
