"""The JSON contract of `mjcalc game settle --json`: a settled game as plain data or text."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..api.session import DEFAULT as SESSION
from ..core.result import pays_of
from .engine import HandRow, Report, State
from .game_file import GameFile
from .winner import Scored

_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(value, ensure_ascii=False)


def _by_player(players: Sequence[str], values: Sequence[int] | None) -> dict[str, int] | None:
    return None if values is None else dict(zip(players, values, strict=True))


def row_dict(row: HandRow, players: Sequence[str], results: bool = True) -> dict[str, Any]:
    """One hand of `game settle --json`: its number, dealer, result (or error) and settlement."""
    out: dict[str, Any] = {"no": row.no, "dealer": players[row.dealer] if row.dealer is not None else None}
    if row.error is not None:
        out["error"] = row.error.to_dict()
    elif row.draw:
        out["draw"] = True
    else:
        if len(row.winners) == 1:
            out["winner"] = players[row.winners[0]]
        else:
            out["winners"] = [players[w] for w in row.winners]
        out["discarder"] = players[row.discarder] if row.discarder is not None else None
        out["self_draw"] = row.self_draw
        if results:
            dicts = [_result_dict(r) for r in row.results]
            out["result"] = dicts[0] if len(dicts) == 1 else dicts
    out["settlement"] = {
        "changes": _by_player(players, row.changes),
        "liability": [
            {"payer": players[p], "code": code, "zh": zh, "en": en, "amount": amount} for p, code, zh, en, amount in row.liability
        ],
        "chips_after": _by_player(players, row.chips_after),
    }
    if row.note is not None:
        out["note"] = row.note
    if row.extra is not None:
        out["extra"] = dict(row.extra)
    return out


def _result_dict(scored: Scored) -> dict[str, Any]:
    """A winner's settled result as `score --json` with meld sources prints it."""
    out: dict[str, Any] = json.loads(_result_text(scored))
    return out


def report_dict(report: Report, results: bool = True) -> dict[str, Any]:
    """`mjcalc game settle --json`: players, hands, totals, chips, transfers, ended_at."""
    players = report.game.players
    return {
        "variant": report.game.ruleset.name,
        "players": list(players),
        "hands": [row_dict(r, players, results) for r in report.rows],
        **report_tail(players, report.state, report.transfers, report.left_out),
    }


def _result_text(scored: Scored) -> str:
    """`_result_dict` as JSON text: the result with the settled payments (its total is their sum)
    and liability, through ScoreResult.to_json, which makes each item's text once."""
    settled = scored.settled
    liability = _encode([row.to_dict() for row in settled.liability])
    return scored.result.settled(pays_of(dict(settled.payments)), liability).to_json()


def _names_json(players: Sequence[str]) -> tuple[str, ...] | None:
    """Each player's name as JSON, made once per game's players (None: two share a name, and the
    dicts by player keep only one of them)."""
    key = ("names_json", tuple(players))
    names: tuple[str, ...] | bool | None = SESSION.kept.get(key)
    if names is None:
        names = SESSION.kept.keep(key, tuple(_encode(p) for p in players) if len(set(players)) == len(players) else False)
    return names if isinstance(names, tuple) else None


def _won_templates(names: tuple[str, ...]) -> tuple[str, str]:
    """A won hand's row as a %-template made once per game's names: with the 子 after it, and without (null)."""
    key = ("won_templates", names)
    templates: tuple[str, str] | None = SESSION.kept.get(key)
    if templates is None:
        by_player = "{" + ", ".join([name.replace("%", "%%") + ": %d" for name in names]) + "}"
        head = ('{"no": %d, "dealer": %s, %s, "discarder": %s, "self_draw": %s, "result": %s, "settlement": {"changes": '
                + by_player + ', "liability": %s, "chips_after": ')
        templates = SESSION.kept.keep(key, (head + by_player + "}%s}", head + "null}%s}"))
    return templates


def row_json(row: HandRow, players: Sequence[str]) -> str:
    """`json.dumps(row_dict(row, players), ensure_ascii=False)`, with each result's text spliced in
    and a won hand's own keys joined from its players' names, encoded once a game."""
    names = _names_json(players)
    if not row.results or names is None or row.dealer is None:
        if not row.results:
            return _encode(row_dict(row, players, results=False))
        return _spliced(row, players)
    parts = [_result_text(r) for r in row.results]
    result = parts[0] if len(parts) == 1 else "[" + ", ".join(parts) + "]"
    who = f'"winner": {names[row.winners[0]]}' if len(row.winners) == 1 else '"winners": [' + ", ".join([names[w] for w in row.winners]) + "]"
    discarder = "null" if row.discarder is None else names[row.discarder]
    liability = "[]" if not row.liability else _encode(
        [{"payer": players[p], "code": code, "zh": zh, "en": en, "amount": amount} for p, code, zh, en, amount in row.liability])
    tail = "" if row.note is None else f', "note": {_encode(row.note)}'
    tail += "" if row.extra is None else f', "extra": {_encode(dict(row.extra))}'
    head = (row.no, names[row.dealer], who, discarder, "true" if row.self_draw else "false", result, *row.changes, liability)
    with_chips, without = _won_templates(names)  # an int's JSON is its %d
    return without % (*head, tail) if row.chips_after is None else with_chips % (*head, *row.chips_after, tail)


def _spliced(row: HandRow, players: Sequence[str]) -> str:
    """row_json through the dicts: the head and the settlement encoded, each result's text between them."""
    head = row_dict(row, players, results=False)
    settlement = head.pop("settlement")
    after = {k: head.pop(k) for k in ("note", "extra") if k in head}  # the keys after the settlement
    parts = [_result_text(r) for r in row.results]
    result = parts[0] if len(parts) == 1 else "[" + ", ".join(parts) + "]"
    tail = "".join(f', "{k}": {json.dumps(v, ensure_ascii=False)}' for k, v in after.items())
    return f'{json.dumps(head, ensure_ascii=False)[:-1]}, "result": {result}, "settlement": {json.dumps(settlement, ensure_ascii=False)}{tail}}}'


def report_chunks(game: GameFile, rows: Iterable[HandRow], end: Callable[[], tuple[State, Sequence[tuple[int, int, int]]]]) -> Iterator[str]:
    """The text of `report_json`, a hand at a time: the rows are written as they come, then
    `end()` gives the standings and transfers after the last of them."""
    players = game.players
    left_out: list[tuple[int, int | None]] = []
    yield json.dumps({"variant": game.ruleset.name, "players": list(players)}, ensure_ascii=False)[:-1] + ', "hands": ['
    for i, row in enumerate(rows):
        if row.error is not None:
            left_out.append((row.no, row.line))
        yield (", " if i else "") + row_json(row, players)
    state, transfers = end()
    yield "], " + json.dumps(report_tail(players, state, transfers, left_out), ensure_ascii=False)[1:]


def report_tail(players: Sequence[str], state: State, transfers: Sequence[tuple[int, int, int]],
                left_out: Sequence[tuple[int, int | None]] = ()) -> dict[str, Any]:
    """The keys of the report after `hands`: totals, chips, transfers, ended_at, and whether the totals are
    final (`complete`: no hand is an error row) with the hands left out (`left_out`: each one's `no` and `line`)."""
    return {
        "totals": _by_player(players, state.totals),
        "chips": _by_player(players, state.chips),
        "transfers": [{"from": players[a], "to": players[b], "amount": n} for a, b, n in transfers],
        "ended_at": state.ended_at,
        "complete": not left_out,
        "left_out": [{"no": no, "line": line} for no, line in left_out],
    }


def report_json(report: Report) -> str:
    """`json.dumps(report_dict(report), ensure_ascii=False)`, without decoding every result first."""
    return "".join(report_chunks(report.game, report.rows, lambda: (report.state, report.transfers)))
