"""`game settle` and `game show` at 40 and 80 columns: nothing cut; piped, the table is as it always was."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
runner = CliRunner()


def _fits(out: Any, width: int) -> str:
    assert out.exit_code == 0, out.output
    text: str = out.stdout
    assert max(cell_len(line) for line in text.splitlines()) <= width
    assert "…" not in text
    return text


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_game_settle_fits_without_cutting(path: Path, lang: str, width: int) -> None:
    text = _fits(runner.invoke(app, ["game", "settle", str(path), "--lang", lang], env={"COLUMNS": str(width)}), width)
    flat = re.sub(r"\s+", " ", text)
    data = runner.invoke(app, ["game", "settle", str(path), "--json"]).stdout
    import json

    report = json.loads(data)
    for player, total in report["totals"].items():
        shown = f"{total:+d}" if total else "0"
        assert f"{player} {shown}" in flat or re.search(rf"\|\s*{re.escape(shown)}\b", text), (player, shown)
    for t in report["transfers"]:
        assert f"{t['from']} → {t['to']} {t['amount']}" in text
    for hand in report["hands"]:
        for row in hand["settlement"]["liability"]:
            assert f"{row['payer']} +{row['amount']}" in flat


def test_piped_without_columns_the_table_is_unchanged() -> None:
    doc = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    expected = doc.split("```text\n", 1)[1].split("```", 1)[0]
    out = runner.invoke(app, ["game", "settle", str(ROOT / "examples" / "wuhu315-club.yaml")], env={"COLUMNS": ""})
    assert [line.rstrip() for line in out.stdout.splitlines()] == expected.splitlines()  # the docs keep no trailing spaces
    assert out.stdout.splitlines()[1].startswith("+------+----+")  # the ASCII table, one hand a line


@pytest.mark.parametrize("width", [40, 80])
def test_game_show_fits_without_cutting(width: int, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert runner.invoke(app, ["game", "new", "--db", db, "--variant", "wuhu315", "--players", "王,李,张,赵", "--dealer", "王"]).exit_code == 0
    for args in (["--winner", "李", "--discarder", "王", "123m456m789m11p999p"],
                 ["--winner", "赵", "--discarder", "李", "-m", "111m@王", "-m", "222m@王", "-m", "333m@王", "456m99m"]):
        assert runner.invoke(app, ["game", "add", "--db", db, *args]).exit_code == 0
    text = _fits(runner.invoke(app, ["game", "show", "--db", db], env={"COLUMNS": str(width)}), width)
    assert "三对包牌 王 +60" in text


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_several_games_fit_without_cutting(lang: str, width: int) -> None:
    log = ROOT / "examples" / "club-season.csv"
    text = _fits(runner.invoke(app, ["game", "settle", str(log), "--lang", lang], env={"COLUMNS": str(width)}), width)
    for line in ("王 → 张 93", "钱 → 李 16", "-150", "+93"):
        assert line in text


NAMES = ["王", "李", "Wang, Jr.", " c", "[bold]x[/]", "a\\\\", "=1+1", "ｗｉｄｅ", "e\u0301", "x:y", "Zhao Zhao Zhao", "钱"]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_plain_table_is_the_bytes_rich_lays_out(seed: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import random

    from mahjong_calc.present import render_game

    rng = random.Random(seed)
    players = rng.sample(NAMES, 4)
    chips = rng.random() < 0.5
    hands = []
    for no in range(1, rng.randint(0, 6) + 1):
        changes = {p: rng.choice([0, 8, -8, 24, -24, 150, -1500]) for p in players}
        hand: dict[str, Any] = {"no": no, "dealer": rng.choice(players),
                                "settlement": {"changes": changes, "chips_after": {p: rng.randint(-5, 200) for p in players} if chips else None,
                                               "liability": [{"payer": rng.choice(players), "zh": "三对包牌", "en": "three pungs: all", "amount": 60}]
                                               if rng.random() < 0.3 else []}}
        kind = rng.random()
        if kind < 0.15:
            hand["error"] = {"code": "game_over"}
        elif kind < 0.3:
            hand["draw"] = True
        else:
            hand.update(winner=rng.choice(players), self_draw=rng.random() < 0.5, discarder=rng.choice(players), result={"value": rng.randint(1, 99)})
        hands.append(hand)
    data = {"variant": "wuhu315", "players": players, "hands": hands, "totals": {p: rng.randint(-300, 300) for p in players},
            "chips": {p: rng.randint(0, 200) for p in players} if chips else None, "ended_at": rng.choice([None, 3]),
            "transfers": [{"from": players[0], "to": players[1], "amount": 7}]}
    title = rng.choice([None, "game 7 · wuhu315 · 2026-11-30", "game :smile: · x"])
    plain = render_game._plain_table
    taken = []
    monkeypatch.setattr(render_game, "_plain_table", lambda *a: taken.append(plain(*a)) or taken[-1])
    for columns in ("", "80", "200"):
        monkeypatch.setenv("COLUMNS", columns)
        fast = io.StringIO()
        render_game.print_game(data, lang, fast, title)
        if columns == "200" and title != "game :smile: · x":
            assert taken[-1] is not None  # the plain table was written, not Rich's
        with monkeypatch.context() as m:
            m.setattr(render_game, "_plain_table", lambda *a: None)
            slow = io.StringIO()
            render_game.print_game(data, lang, slow, title)
        assert fast.getvalue() == slow.getvalue(), (columns, players)


def test_a_log_of_many_games_is_laid_out_without_rich_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import rich.table

    games = 40
    lines = []
    for g in range(games):
        lines += [f'{{"variant": "wuhu315", "players": ["王", "李", "张", "赵"], "dealer": "王", "date": "2026-11-{1 + g % 28:02d}"}}',
                  '{"winner": "李", "self_draw": true, "hand": "123456m13m99p555p2m"}']
    log = tmp_path / "many.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    made = []
    real = rich.table.Table.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(rich.table.Table, "__init__", counted)
    out = runner.invoke(app, ["game", "settle", str(log)], env={"COLUMNS": ""})
    assert out.exit_code == 0, out.output
    assert all(f"game {g} · wuhu315" in out.stdout for g in range(1, games + 1))
    assert len(made) <= 1, len(made)  # the totals over all games only: each game's table is written as text
