"""A game file's YAML, one game (a mapping) or a list of games, walked as events (`core/yaml_events.py`).

A game of millions of hands never sits in memory whole (a composed document costs ~1.5 KB a
hand): the file is walked once to check it all (syntax, duplicate keys, aliases, numbers)
and read its headers, then again as the fold reaches each hand, one hand's nodes at a time.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

from ..core.errors import RulesetError, shown
from ..core.words import N_
from ..core.yaml_events import AliasRefused, Events
from .game_file import RawHand, bad_file, file_error

NEW_GAME = object()  # in the walk of a YAML list of games: the next game begins


def yaml_game(name: str, text: str) -> tuple[dict[str, Any], Iterator[RawHand]]:
    """The header, with the whole file checked now; the hands, constructed again one at a time as the fold reaches them."""
    header: dict[str, Any] = {}
    for _ in walk(name, text, header):  # every hand is built once here, and dropped
        pass
    return header, _hands(name, text)


def _hands(name: str, text: str) -> Iterator[RawHand]:
    for no, value in enumerate(walk(name, text, {}), 1):
        yield RawHand(no, value)


def walk(name: str, text: str, header: dict[str, Any], games: list[dict[str, Any]] | None = None) -> Iterator[Any]:
    """Each hand's value, in order; `header` is filled with the other top-level keys.

    With `games` (a list), the document is a list of games: `games` gets each header and
    NEW_GAME is yielded before each game's hands.
    """
    import yaml

    from ..rules.loader import strict_loader

    loader = strict_loader("a game file")(text)
    events = Events(loader, aliases=False)
    try:
        yield from (_walk(events, name, header) if games is None else _walk_games(events, name, games))
    except AliasRefused as exc:
        detail = RulesetError("ruleset_invalid", "anchors and aliases (&name, *name) are not allowed in a game file "
                              "(the value at line {anchors} is used again)", anchors=exc.line)
        raise bad_file("{name}: {detail}", name=name, detail=detail) from None
    except RulesetError as exc:  # a duplicate key
        raise bad_file("{name}: {detail}", name=name, detail=exc) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = N_(" at line {line}", line=mark.line + 1) if mark is not None else ""
        raise file_error("bad_yaml", "{name}: not valid YAML{at}", name=name, at=at) from None
    except RecursionError:
        raise bad_file("{name}: nested too deeply", name=name) from None
    except ValueError as exc:  # int() of a 5,000-digit number, a date that does not exist, ...
        problem = N_("an integer has too many digits") if "digits" in str(exc) else N_("a value cannot be read ({reason})", reason=shown(str(exc)))
        raise bad_file("{name}: {problem}", name=name, problem=problem) from None
    finally:
        loader.dispose()


def _walk(events: Events, name: str, header: dict[str, Any]) -> Iterator[Any]:
    import yaml

    first = events.begin()
    if first is None:
        raise bad_file("{name}: a game is a mapping with variant, players, dealer and hands", name=name)
    if not isinstance(first, yaml.MappingStartEvent):
        events.value(events.node())
        raise bad_file("{name}: a game is a mapping with variant, players, dealer and hands", name=name)
    hands = yield from _walk_game(events, header)
    _walk_end(events)
    _check_hands(name, hands)


def _walk_end(events: Events) -> None:
    """The document's end, and nothing after it."""
    import yaml

    events.end()
    another = events.another()
    if another is not None:
        raise yaml.composer.ComposerError("but found another document", None, "expected a single document in the stream", another)


def _check_hands(name: str, hands: Any) -> None:
    if not isinstance(hands, list):
        raise bad_file("{name}: hands: must be a list of hands (an empty game is `hands: []`)", name=name)


def _walk_game(events: Events, header: dict[str, Any]) -> Generator[Any, None, Any]:
    """One game's mapping, from its start event: each hand's value; `header` gets the other keys;
    returns the `hands:` value (a list, unless the file is wrong)."""
    import yaml

    from ..rules.loader import check_key

    hands: Any = None
    seen: set[Any] = set()
    for key_node in events.key_nodes():
        key = events.value(key_node)
        check_key(key, key_node, seen)
        seen.add(key)
        if key == "hands" and events.loader.check_event(yaml.SequenceStartEvent):
            for _ in events.entries():
                yield events.value(events.node())
            hands = []
        else:
            value = events.value(events.node())
            if key == "hands":
                hands = value
            else:
                header[key] = value
    return hands


def _walk_games(events: Events, name: str, headers: list[dict[str, Any]]) -> Iterator[Any]:
    """A YAML list of games: NEW_GAME before each game, then its hands' values; `headers` gets each header."""
    import yaml

    events.begin()
    for _ in events.entries():
        if not events.loader.check_event(yaml.MappingStartEvent):
            events.value(events.node())
            raise bad_file("{name}: game {value}: a game is a mapping with variant, players, dealer and hands", name=name, value=len(headers) + 1)
        headers.append({})
        yield NEW_GAME
        _check_hands(f"{name}: game {len(headers)}", (yield from _walk_game(events, headers[-1])))
    _walk_end(events)


def is_yaml_list(text: str) -> bool:
    """Whether a YAML document is a list (of games) rather than one game's mapping."""
    import yaml

    from ..rules.loader import strict_loader

    loader = strict_loader("a game file")(text)
    try:
        return isinstance(Events(loader, aliases=False).begin(), yaml.SequenceStartEvent)
    except yaml.YAMLError:
        return False  # the one-game reader says where
    finally:
        loader.dispose()
