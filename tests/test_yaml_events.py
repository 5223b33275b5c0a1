"""One YAML reader (core/yaml_events.py) behind three doors: batch records, a game file, a file of games.

The same malformed item is put where each door reads items (a batch record, a game's hand, a
hand of the first game in a list of games), and each door says what it says of it: batch an
error row at the item's line, the game doors one `GameFileError` naming the file and the line.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml

from mahjong_calc.batch.readers import read_items
from mahjong_calc.core.errors import MjcalcError
from mahjong_calc.core.yaml_events import AliasRefused, Events, TooDeep
from mahjong_calc.game.log import open_game, open_games

HEAD = "variant: wuhu315\nplayers: [A, B, C, D]\ndealer: A\nhands:\n"
DEEP = "[" * 65 + "]" * 65

# item -> (batch rows (line, kind, code), the game doors' (code, message after the file name); None: read)
ITEMS: dict[str, tuple[list[tuple[int, str, str | None]], tuple[str, str] | None]] = {
    "{draw: true": ([(1, "err", "bad_yaml")], ("bad_yaml", "not valid YAML at line 6")),
    "*nope": ([(1, "err", "bad_yaml")], ("bad_yaml", "not valid YAML at line 5")),
    "{draw: true, draw: true}": ([(1, "err", "bad_record")], ("bad_game", "duplicate key 'draw' at line 5")),
    "1" + "0" * 5000: ([(1, "err", "bad_yaml")], ("bad_game", "an integer has too many digits")),
    "&a {draw: true}\n- *a": ([(1, "obj", None), (2, "obj", None)],
                              ("bad_game", "anchors and aliases (&name, *name) are not allowed in a game file "
                                           "(the value at line 5 is used again)")),
    "&a {draw: true}\n- &a {draw: true}": ([(1, "obj", None), (2, "err", "bad_yaml")], None),
    DEEP: ([(1, "err", "bad_record")], None),  # batch bounds nesting; a game's hand is the engine's to refuse
}


def _game_error(path: Path, several: bool) -> tuple[str, str] | None:
    try:
        for game in open_games(str(path)) if several else [open_game(str(path))]:
            list(game.hands)
    except MjcalcError as err:
        return err.code, err.message.removeprefix(f"{path}: ").removeprefix("game 1: ")
    return None


@pytest.mark.parametrize("item", sorted(ITEMS), ids=lambda item: item[:20])
def test_each_door_reads_the_same_item_as_before(item: str, tmp_path: Path) -> None:
    rows, game = ITEMS[item]
    got = [(line, kind, payload[0] if kind == "err" else None) for line, kind, payload in read_items(io.BytesIO(f"- {item}\n".encode()), "yaml")]
    assert got == rows
    one = tmp_path / "one.yaml"
    one.write_text(f"{HEAD}- {item}\n", encoding="utf-8")
    assert _game_error(one, several=False) == game
    assert _game_error(one, several=True) == game
    listed = tmp_path / "list.yaml"
    listed.write_text("- " + HEAD.replace("\n", "\n  ").rstrip() + "\n" + "".join(f"  {line}\n" for line in f"- {item}".split("\n")), encoding="utf-8")
    assert _game_error(listed, several=True) == game  # the item starts at line 5 here too


def _events(text: str, **kw: object) -> Events:
    events = Events(yaml.SafeLoader(text), **kw)  # type: ignore[arg-type]
    events.begin()
    return events


def test_an_alias_is_followed_to_its_anchors_node_or_refused_with_the_anchors_line() -> None:
    events = _events("- &a [1]\n- *a\n", aliases=True)
    nodes = [events.node() for _ in events.entries()]
    assert nodes[0] is nodes[1] and events.value(nodes[1]) == [1]
    events = _events("- 0\n- &a [1]\n- *a\n", aliases=False)
    with pytest.raises(AliasRefused) as refused:
        [events.node() for _ in events.entries()]
    assert refused.value.line == 2


def test_nesting_past_the_bound_stops_before_the_deeper_event_and_the_rest_can_be_skipped() -> None:
    events = _events("- [[[1]]]\n- 2\n", aliases=True, depth=3)
    lines = events.entries()
    assert next(lines) == 1
    with pytest.raises(TooDeep):
        events.node()
    events.skip(3)
    assert next(lines) == 2 and events.value(events.node()) == 2
    assert next(lines, None) is None
    events.end()
    assert events.another() is None


def test_a_second_document_is_where_it_starts() -> None:
    events = _events("- 1\n--- 2\n", aliases=True)
    assert [events.value(events.node()) for _ in events.entries()] == [1]
    events.end()
    mark = events.another()
    assert mark is not None and mark.line == 1


# What no door used to survive: each is now an error row (batch) or one refusal (a game file, a ruleset).
CRASHED: dict[bytes, list[tuple[int, str, str | None]]] = {
    b"- &x [*x]\n": [(1, "err", "record_too_large")],  # a node inside itself expands without end
    b"- !!bool abc\n": [(1, "err", "bad_yaml")],  # PyYAML: KeyError
    b"- !!int ''\n": [(1, "err", "bad_yaml")],  # IndexError
    b"- !!timestamp x\n": [(1, "err", "bad_yaml")],  # AttributeError
    "汉".encode() + b"\xff\x00 a\n": [(1, "err", "bad_yaml")],  # a NUL on a line that is not UTF-8 reached the parser
}


@pytest.mark.parametrize("data", sorted(CRASHED), ids=repr)
def test_what_crashed_batch_is_an_error_row(data: bytes) -> None:
    got = [(line, kind, payload[0] if kind == "err" else None) for line, kind, payload in read_items(io.BytesIO(data), "yaml")]
    assert got == CRASHED[data]


@pytest.mark.parametrize(("value", "shown"), [("!!bool abc", "'abc' is not a valid !!bool"), ("!!int ''", "'' is not a valid !!int"),
                                              ("!!timestamp x", "'x' is not a valid !!timestamp")])
def test_a_tagged_value_that_cannot_be_read_is_refused_by_games_and_rulesets(value: str, shown: str, tmp_path: Path) -> None:
    from mahjong_calc.core.errors import RulesetError
    from mahjong_calc.rules.loader import parse_yaml

    path = tmp_path / "g.yaml"
    path.write_text(f"{HEAD}- {{draw: true, x: {value}}}\n", encoding="utf-8")
    assert _game_error(path, several=False) == ("bad_game", f'a value cannot be read ("{shown}")')
    with pytest.raises(RulesetError) as refused:
        parse_yaml(f"name: {value}\n", "house.yaml")
    assert refused.value.code == "ruleset_invalid" and shown in refused.value.message


def test_a_document_that_yaml_sees_inside_an_item_is_a_row_not_lost() -> None:
    # NEL (U+0085) is a line break to YAML but not to the item cutter: `--- b` starts a second document
    rows = list(read_items(io.BytesIO("- a\x85--- b\n- c\n".encode()), "yaml"))
    assert [(line, kind) for line, kind, _ in rows] == [(1, "obj"), (2, "err"), (3, "obj")]
    assert rows[1][2] == ("bad_yaml", "a YAML batch is one document; found another")
