"""Game records: read a game file (YAML, or JSON Lines with a header line) and check its header.

A game names the variant (or `rules:` a ruleset file), the four players in seat order
E S W N, the first dealer, optionally the starting 子 (`chips`; 0 keeps no 子 ledger), then the hands in order.
The header is checked here, once: a bad header makes the whole game meaningless and is
a `GameFileError` (exit 2). Each hand stays raw until the engine reaches it, so that a
bad hand is an error row with its number and the other hands are still settled.
The contract ships as JSON Schema in `mahjong_calc/game.schema.json`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError, MjcalcError
from ..core.seats import seat_index
from ..rules.loader import load_ruleset
from ..rules.ruleset import Ruleset

HEADER_KEYS = ("variant", "rules", "players", "dealer", "chips", "hands")


class GameFileError(InputError):
    """The game file cannot be read, or its header makes every hand meaningless (exit 2)."""


@dataclass(frozen=True)
class RawHand:
    """One hand as written: its number (1-based), its value, and an error if it could not even be read."""

    no: int
    value: Any
    error: MjcalcError | None = None


@dataclass(frozen=True)
class GameFile:
    """A read game: the checked header, and the hands still raw."""

    ruleset: Ruleset[Any, Any, Any]
    players: tuple[str, str, str, str]
    dealer: int  # the first dealer's seat, 0..3 = E S W N
    chips: int | None  # the starting 子; 0: no 子 ledger; None: the ruleset's default
    hands: tuple[RawHand, ...]
    header: Mapping[str, Any]
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)  # scored hands, per game


def schema_path() -> Path:
    """The JSON Schema of a game record, shipped inside the package."""
    return Path(__file__).resolve().parent.parent / "game.schema.json"


def load_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return schema


def _fail(code: str, message: str) -> GameFileError:
    return GameFileError(code, message)


def _bad(message: str) -> GameFileError:
    return _fail("bad_game", message)


def _read_text(name: str) -> str:
    import sys

    try:
        if name == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        return Path(name).read_bytes().decode("utf-8")
    except OSError as exc:
        raise _fail("game_not_found", f"{name}: cannot read the game file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise _fail("bad_encoding", f"{name}: the game file is not UTF-8") from None


def _is_jsonl(name: str, text: str) -> bool:
    lower = name.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        return True
    if lower.endswith((".yaml", ".yml", ".json")):
        return False
    first = text.lstrip().partition("\n")[0].strip()
    if not first.startswith("{"):
        return False
    try:
        head = json.loads(first)
    except ValueError:
        return False
    return isinstance(head, dict) and "hands" not in head


def _yaml(name: str, text: str) -> tuple[dict[str, Any], list[RawHand]]:
    import yaml

    from ..core.errors import RulesetError
    from ..rules.loader import _strict_loader

    try:
        data = yaml.load(text, Loader=_strict_loader())
    except RulesetError as exc:  # a duplicate key
        raise _bad(f"{name}: {exc.message}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise _fail("bad_yaml", f"{name}: not valid YAML{at}") from None
    if not isinstance(data, dict):
        raise _bad(f"{name}: a game is a mapping with variant, players, dealer and hands")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise _bad(f"{name}: hands: must be a list of hands (an empty game is `hands: []`)")
    header = {k: v for k, v in data.items() if k != "hands"}
    return header, [RawHand(i + 1, h) for i, h in enumerate(hands)]


def _jsonl(name: str, text: str) -> tuple[dict[str, Any], list[RawHand]]:
    header: dict[str, Any] | None = None
    hands: list[RawHand] = []
    for line_no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            if header is None:
                raise _bad(f"{name}: line {line_no}: the header is not valid JSON ({exc})") from None
            hands.append(RawHand(len(hands) + 1, None, InputError("bad_json", f"line {line_no}: not valid JSON ({exc})")))
            continue
        if header is None:
            if not isinstance(value, dict):
                raise _bad(f"{name}: line {line_no}: the header must be an object with variant, players, dealer")
            if "hands" in value:
                raise _bad(f"{name}: line {line_no}: in JSON Lines the hands follow the header, one per line")
            header = value
        else:
            hands.append(RawHand(len(hands) + 1, value))
    if header is None:
        raise _bad(f"{name}: the file is empty; the first line is the header")
    return header, hands


def read_game(name: str) -> GameFile:
    """Read and check a game file (`-` is stdin): YAML, or JSON Lines with a header line."""
    text = _read_text(name)
    header, hands = (_jsonl if _is_jsonl(name, text) else _yaml)(name, text)
    return check_header(header, hands, name)


def check_header(header: Mapping[str, Any], hands: list[RawHand], name: str = "game") -> GameFile:
    """Check the header: one of variant/rules, four distinct players, one dealer among them."""
    for key in header:
        if key not in HEADER_KEYS:
            raise _bad(f"{name}: unknown key {key!r} in the header; keys are: {', '.join(HEADER_KEYS)}")
    variant, rules = header.get("variant"), header.get("rules")
    if (variant is None) == (rules is None):
        raise _bad(f"{name}: give one of variant: (a shipped ruleset) or rules: (a ruleset file)")
    if not isinstance(variant or rules, str):
        raise _bad(f"{name}: {'variant' if variant is not None else 'rules'}: must be a string")
    if rules is not None and name != "-" and not Path(rules).is_absolute():
        rules = str(Path(name).parent / rules)  # a rules file sits beside the game file
    ruleset = load_ruleset(variant, rules)
    players = header.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 4
        or not all(isinstance(p, str) and p.strip() for p in players)
        or len(set(players)) != 4
    ):
        raise _bad(f"{name}: players: must be four different names in seat order E S W N, not {players!r}")
    names: tuple[str, str, str, str] = tuple(players)
    dealer = header.get("dealer")
    if isinstance(dealer, list):
        raise _fail("two_dealers", f"{name}: dealer: one player deals the first hand, not {dealer!r}")
    if not isinstance(dealer, str):
        raise _fail("missing_dealer", f"{name}: dealer: name the first hand's dealer (a player or E/S/W/N)")
    seat = seat_index(dealer, names)
    if seat is None:
        raise _fail("unknown_player", f"{name}: dealer: {dealer!r} is not one of the players {', '.join(names)}")
    chips = header.get("chips")
    if chips is not None and (not isinstance(chips, int) or isinstance(chips, bool) or chips < 0):
        raise _bad(f"{name}: chips: must be a whole number of 子 (0: no 子 ledger), not {chips!r}")
    return GameFile(ruleset, names, seat, chips, tuple(hands), dict(header))
