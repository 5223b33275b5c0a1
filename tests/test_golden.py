"""The golden tables (tests/golden.py, tests/data/golden/): seeded random records and games of
every variant, in tile notation, with the answers of the tree that had two scoring paths, each
held to the other there. Every record goes through the batch engine (under its `--set`), a
sample through `mjcalc score --json`, and every game through `game settle`: the one path must
give the same value, payments and patterns, the same refusal or error, the same totals and chips.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from golden import TABLES, answer_text, game_answer, games, parse_flags
from typer.testing import CliRunner

from mahjong_calc.batch import score_records
from mahjong_calc.batch.evaluate import Defaults, configure, current_defaults
from mahjong_calc.cli.app import app
from mahjong_calc.game import read_game, report_dict, settle_game


def _records() -> dict[tuple[str, str], list[tuple[dict[str, Any], str]]]:
    """The records table by (set, --set): each record and its answer."""
    table: dict[tuple[str, str], list[tuple[dict[str, Any], str]]] = defaultdict(list)
    for line in (TABLES / "records.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        name, overrides, hand, melds, kongs, win, flags, answer = line.split("\t")
        record: dict[str, Any] = {"variant": name, "hand": hand, **parse_flags(flags)}
        if melds != "-":
            record["melds"] = melds.split(",")
        if kongs != "-":
            record["concealed_kongs"] = kongs.split(",")
        if win != "-":
            record["win"] = win
        table[(name, overrides)].append((record, answer))
    return table


RECORDS = _records()


@pytest.mark.parametrize(("name", "overrides"), list(RECORDS), ids=[f"{n}{' ' + o if o != '-' else ''}" for n, o in RECORDS])
def test_every_record_scores_as_the_table_says(name: str, overrides: str) -> None:
    rows = RECORDS[(name, overrides)]
    kinds = {answer[0] if answer[0] in "!?" else "win" for _, answer in rows}
    assert kinds == {"!", "?", "win"}, f"the table of {name} {overrides} lacks a kind of answer: {kinds}"
    before = current_defaults()
    configure(Defaults(overrides=() if overrides == "-" else tuple(overrides.split(";"))))
    try:
        got = [answer_text(row) for row in score_records([record for record, _ in rows])]
    finally:
        configure(before)
    wrong = [(record, want, have) for (record, want), have in zip(rows, got, strict=True) if want != have]
    assert not wrong, f"{len(wrong)} of {len(rows)} differ; the first: {wrong[0]}"


@pytest.mark.parametrize("name", sorted({name for name, overrides in RECORDS if overrides == "-"}))
def test_mjcalc_score_answers_as_the_table_says(name: str) -> None:
    """A sample of each variant's records through the CLI's door, `mjcalc score --json`."""
    runner = CliRunner()
    for record, want in RECORDS[(name, "-")][::15]:
        args = ["score", record["hand"], "--variant", name, "--json"]
        for meld in record.get("melds", []):
            args += ["--meld", meld]
        for kong in record.get("concealed_kongs", []):
            args += ["--concealed-kong", kong]
        if "win" in record:
            args += ["--win", record["win"]]
        for flag, value in record.items():
            if flag in ("variant", "hand", "melds", "concealed_kongs", "win"):
                continue
            option = "--" + flag.replace("_", "-")
            args += [option] if value is True else [option, ",".join(map(str, value)) if isinstance(value, list) else str(value)]
        out = runner.invoke(app, args)
        data = json.loads(out.stdout)
        if want[0] in "!?":
            assert data["reason" if want[0] == "?" else "error"]["code"] == want[1:], (record, out.stdout)
            assert out.exit_code == (1 if want[0] == "?" else 2), record
        else:
            assert out.exit_code == 0, record
            assert answer_text(data) == want, record


GAMES = [line.split("\t", 2) for line in (TABLES / "games.tsv").read_text(encoding="utf-8").splitlines() if not line.startswith("#")]


@pytest.mark.parametrize(("variant", "index", "want"), GAMES, ids=[f"{v}-{i}" for v, i, _ in GAMES])
def test_every_game_settles_as_the_table_says(variant: str, index: str, want: str, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(list(games(variant))[int(index)], encoding="utf-8")
    assert game_answer(report_dict(settle_game(read_game(str(path))))) == want
