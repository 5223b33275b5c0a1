"""YAML read as PyYAML's stream of events, one item at a time: how batch records, game files and
files of games read YAML, so that a file of millions of records or hands is never held whole.

`Events(loader, ...)` walks the top of one document: `begin()` passes the stream's and the
document's start and gives the document's first event; `entries()` gives a list's items and
`key_nodes()` a mapping's keys, each for the caller to read (`node()`, `value()`, or a walk further
down) before it asks for the next; `end()` passes the document's end and `another()` says where
a second document starts. What a door makes of a failure (an error row, a refused file) is the
door's: this module raises PyYAML's errors as they come, and the two of its own below.

`node()` composes a node from the events here rather than by PyYAML's composer, so that libyaml's
C parser (which lends Python no composer) and the pure-Python one read alike: an alias is
followed to its anchor (anchors carry over from item to item, as in one document) or refused,
and a node nested deeper than the bound stops the walk before the event that would go deeper.
`refuse_unreadable_scalars` makes a loader (batch's, and the strict one of rulesets and game
files) refuse a tagged value it cannot read with ValueError, as every reader expects.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class TooDeep(Exception):
    """A node nested deeper than the walk's bound: that many collections are open, their events not yet taken."""


class AliasRefused(Exception):
    """An alias where aliases are refused; `line` is the 1-based line of the anchor it names."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


def refuse_unreadable_scalars(loader_class: Any) -> None:
    """Make `loader_class`'s !!bool, !!int, !!float and !!timestamp refuse a value they cannot read
    with ValueError, as `!!int abc` already is: PyYAML's own raise KeyError (`!!bool abc`),
    IndexError (`!!int ''`) or AttributeError (`!!timestamp x`), which no reader expects."""
    for name in ("bool", "int", "float", "timestamp"):
        tag = f"tag:yaml.org,2002:{name}"
        loader_class.add_constructor(tag, _readable(loader_class.yaml_constructors[tag], name))


def _readable(construct: Any, name: str) -> Any:
    def checked(loader: Any, node: Any) -> Any:
        try:
            return construct(loader, node)
        except (LookupError, AttributeError):
            raise ValueError(f"{str(node.value)[:40]!r} is not a valid !!{name}") from None

    return checked


class Events:
    """One YAML document's events, walked from its top (PyYAML's event API is untyped: `Any`)."""

    __slots__ = ("aliases", "anchors", "depth", "loader")

    def __init__(self, loader: Any, *, aliases: bool, depth: int | None = None, anchors: dict[Any, Any] | None = None) -> None:
        self.loader = loader
        self.aliases = aliases  # follow an alias to its anchor's node (True) or raise AliasRefused
        self.depth = depth  # the deepest node `node()` composes (the item itself is 1); None: no bound
        self.anchors: dict[Any, Any] = {} if anchors is None else anchors  # anchor -> its node

    def mark(self) -> Any:
        """Where the next event starts (0-based `.line`); the event is not taken."""
        return self.loader.peek_event().start_mark

    def begin(self) -> Any | None:
        """Take the stream's start and, unless the stream ends there (None), the document's start;
        the document's first event, not taken."""
        import yaml

        self.loader.get_event()
        if self.loader.check_event(yaml.StreamEndEvent):
            return None
        self.loader.get_event()
        return self.loader.peek_event()

    def entries(self) -> Iterator[int]:
        """A list's items, from its start event to its end event (both taken): the 1-based line where
        each item starts, for the caller to read the item before asking for the next."""
        import yaml

        loader = self.loader
        loader.get_event()
        while not loader.check_event(yaml.SequenceEndEvent):
            yield loader.peek_event().start_mark.line + 1
        loader.get_event()

    def key_nodes(self) -> Iterator[Any]:
        """A mapping's keys, from its start event to its end event (both taken): each key's node,
        for the caller to read the key's value before asking for the next."""
        import yaml

        loader = self.loader
        loader.get_event()
        while not loader.check_event(yaml.MappingEndEvent):
            yield self.node()
        loader.get_event()

    def end(self) -> None:
        """Take the document's end."""
        self.loader.get_event()

    def another(self) -> Any | None:
        """After the document's end: the start mark of another document, or None where the stream ends."""
        import yaml

        if self.loader.check_event(yaml.StreamEndEvent):
            return None
        return self.mark()

    def skip(self, open_collections: int) -> None:
        """Take the events of the collections still open (after TooDeep: `depth` of them)."""
        import yaml

        while open_collections:
            event = self.loader.get_event()
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                open_collections += 1
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                open_collections -= 1

    def value(self, node: Any) -> Any:
        """A composed node as Python data, by the loader's constructors."""
        return self.loader.construct_document(node)

    def node(self, depth: int = 1) -> Any:
        """The next node, composed from its events as PyYAML's composer composes it."""
        import yaml

        if self.depth is not None and depth > self.depth:
            raise TooDeep
        loader, anchors = self.loader, self.anchors
        event: Any = loader.get_event()
        start: Any = event.start_mark  # libyaml's marks, which PyYAML's stubs do not name
        if isinstance(event, yaml.AliasEvent):
            if event.anchor not in anchors:
                raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}", start)
            if not self.aliases:
                raise AliasRefused(anchors[event.anchor].start_mark.line + 1)
            return anchors[event.anchor]
        anchor = event.anchor
        if anchor is not None and self.aliases and anchor in anchors:
            raise yaml.composer.ComposerError(f"found duplicate anchor {anchor!r}; first occurrence", anchors[anchor].start_mark,
                                              "second occurrence", start)
        tag = event.tag
        node: Any
        if isinstance(event, yaml.ScalarEvent):
            if tag is None or tag == "!":
                tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
            finish: Any = event.end_mark
            node = yaml.ScalarNode(tag, event.value, start, finish, style=event.style)
            if anchor is not None:
                anchors[anchor] = node
            return node
        sequence = isinstance(event, yaml.SequenceStartEvent)
        kind: Any = yaml.SequenceNode if sequence else yaml.MappingNode
        if tag is None or tag == "!":
            tag = loader.resolve(kind, None, event.implicit)
        node = kind(tag, [], start, None, flow_style=event.flow_style)
        if anchor is not None:
            anchors[anchor] = node  # before its children: an alias inside it names the node itself
        if sequence:
            while not loader.check_event(yaml.SequenceEndEvent):
                node.value.append(self.node(depth + 1))
        else:
            while not loader.check_event(yaml.MappingEndEvent):
                key = self.node(depth + 1)
                node.value.append((key, self.node(depth + 1)))
        node.end_mark = loader.get_event().end_mark
        return node
