"""`mjcalc stats`: a hand-made season whose counts are worked out by hand below."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

runner = CliRunner()
SELF_8 = "123456m13m99p555p2m"  # Wuhu 315 self-draw: 8 from each
TONG_TIAN = "123m456m789m11p999p"  # 通天 from a discard: 5 from each (Wuhu: all three pay)
SEASON = [
    {"variant": "wuhu315", "date": "2026-11-01", "players": ["A", "B", "C", "D"], "dealer": "A", "hands": [
        {"winner": "B", "self_draw": True, "hand": SELF_8},  # B +24, A C D -8
        {"winner": "C", "discarder": "A", "hand": TONG_TIAN},  # C +15, A B D -5
        {"draw": True},
        # 清一色 交 30: A fed all three pungs (三对包牌) and pays all 90, 60 of it for C and D
        {"winner": "B", "discarder": "D", "hand": "456m99m", "melds": ["111m@A", "222m@A", "333m@A"]},
    ]},  # totals A -103, B +109, C +7, D -13
    {"variant": "wuhu315", "date": "2026-11-08", "players": ["A", "B", "C", "E"], "dealer": "C", "hands": [
        {"winner": "E", "self_draw": True, "hand": SELF_8},  # E +24, A B C -8
        {"winner": "A", "discarder": "E", "hand": TONG_TIAN},  # A +15, B C E -5
    ]},  # totals A +7, B -13, C -13, E +19
    {"variant": "wuhu315", "date": "2026-12-01", "players": ["A", "B", "C", "D"], "dealer": "A", "hands": [
        {"winner": "D", "self_draw": True, "hand": SELF_8},
    ]},
]


def _big(value: int, game: str, date: str, no: int, patterns: list[str]) -> dict[str, Any]:
    return {"value": value, "game": game, "date": date, "no": no, "patterns": patterns}


# by hand, over the first two games (--until 2026-11-30)
EXPECTED = {
    "A": {"games": 2, "hands": 6, "wins": 1, "self_draws": 0, "deal_ins": 1, "draws": 1, "net": -96,
          "liability_paid": 60, "liability_received": 0, "biggest": _big(5, "season.yaml#2", "2026-11-08", 2, ["tong_tian"])},
    "B": {"games": 2, "hands": 6, "wins": 2, "self_draws": 1, "deal_ins": 0, "draws": 1, "net": 96,
          "liability_paid": 0, "liability_received": 60, "biggest": _big(30, "season.yaml#1", "2026-11-01", 4, ["qing_yi_se", "jiao"])},
    "C": {"games": 2, "hands": 6, "wins": 1, "self_draws": 0, "deal_ins": 0, "draws": 1, "net": -6,
          "liability_paid": 0, "liability_received": 0, "biggest": _big(5, "season.yaml#1", "2026-11-01", 2, ["tong_tian"])},
    "D": {"games": 1, "hands": 4, "wins": 0, "self_draws": 0, "deal_ins": 1, "draws": 1, "net": -13,
          "liability_paid": 0, "liability_received": 0, "biggest": None},
    "E": {"games": 1, "hands": 2, "wins": 1, "self_draws": 1, "deal_ins": 1, "draws": 0, "net": 19,
          "liability_paid": 0, "liability_received": 0, "biggest": _big(8, "season.yaml#2", "2026-11-08", 1, [])},
}


@pytest.fixture
def season(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    Path("season.yaml").write_text(yaml.safe_dump(SEASON, allow_unicode=True), encoding="utf-8")
    return "season.yaml"


def stats(*args: str, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, ["stats", *args], env=env)


def _json(*args: str) -> dict[str, Any]:
    res = stats(*args, "--json")
    assert res.exit_code == 0, res.output
    data: dict[str, Any] = json.loads(res.stdout)
    for p in data["players"].values():
        by_variant = p.pop("by_variant")
        if len(by_variant) == 1:  # one variant: its counts are the player's
            assert list(by_variant.values()) == [{k: v for k, v in p.items() if k != "biggest"}]
        else:
            assert sum(c["net"] for c in by_variant.values()) == p["net"]
        if p["biggest"] is not None:
            assert set(p["biggest"].pop("hand")) == {"concealed", "melds", "win"}
            assert p["biggest"].pop("variant") in ("wuhu315", "wuhu525")
    return data


def test_the_stats_of_a_hand_made_season_are_the_counts_worked_out_by_hand(season: str) -> None:
    data = _json(season, "--until", "2026-11-30")
    assert list(data) == ["players", "patterns", "games", "variants", "complete", "left_out"]
    assert data["games"] == 2
    assert data["variants"] == {"wuhu315": {"games": 2, "hands": 6, "standings": [
        {"player": n, "net": EXPECTED[n]["net"]} for n in sorted(EXPECTED, key=lambda n: -EXPECTED[n]["net"])]}}
    assert data["players"] == EXPECTED
    assert data["patterns"] == {"wuhu315": {"tong_tian": 2, "qing_yi_se": 1, "jiao": 1}}
    assert sum(p["net"] for p in data["players"].values()) == 0


def test_since_until_and_player_select(season: str) -> None:
    assert _json(season)["games"] == 3
    late = _json(season, "--since", "2026-11-02")
    assert late["games"] == 2 and late["players"]["D"]["wins"] == 1 and late["players"]["D"]["games"] == 1
    only = _json(season, "--until", "2026-11-30", "--player", "E")
    assert only["players"] == {"E": EXPECTED["E"]} and only["games"] == 1  # the games E played
    missing = stats(season, "--player", "Z")
    assert missing.exit_code == 2 and "unknown_player" in missing.stderr
    bad = stats(season, "--since", "1 Nov")
    assert bad.exit_code == 2 and "bad_date" in bad.stderr


def test_a_csv_log_a_yaml_twin_and_the_live_games_count_alike(season: str, tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    csv_stats = _json(str(root / "examples" / "club-season.csv"))
    yaml_stats = _json(str(root / "tests" / "data" / "club-season.yaml"))
    for data in (csv_stats, yaml_stats):
        for p in data["players"].values():
            if p["biggest"]:
                p["biggest"].pop("game")
    assert csv_stats == yaml_stats
    db = tmp_path / "g.db"
    assert runner.invoke(app, ["game", "new", "--db", str(db), "--variant", "wuhu315", "--players", "A,B,C,E", "--dealer", "C"]).exit_code == 0
    for hand in SEASON[1]["hands"]:
        args = ["--winner", hand["winner"], *(["--discarder", hand["discarder"]] if "discarder" in hand else ["-s"]), hand["hand"]]
        assert runner.invoke(app, ["game", "add", "--db", str(db), *args]).exit_code == 0
    live = _json("--db", str(db))
    assert live["games"] == 1
    assert {n: {k: v for k, v in p.items() if k != "biggest"} for n, p in live["players"].items()} == \
        {"A": {"games": 1, "hands": 2, "wins": 1, "self_draws": 0, "deal_ins": 0, "draws": 0, "net": 7, "liability_paid": 0, "liability_received": 0},
         "B": {"games": 1, "hands": 2, "wins": 0, "self_draws": 0, "deal_ins": 0, "draws": 0, "net": -13, "liability_paid": 0, "liability_received": 0},
         "C": {"games": 1, "hands": 2, "wins": 0, "self_draws": 0, "deal_ins": 0, "draws": 0, "net": -13, "liability_paid": 0, "liability_received": 0},
         "E": {"games": 1, "hands": 2, "wins": 1, "self_draws": 1, "deal_ins": 1, "draws": 0, "net": 19, "liability_paid": 0, "liability_received": 0}}
    both = _json(season, "--db", str(db), "--until", "2026-11-30")
    assert both["games"] == 2 + (1 if live_date_within(db) else 0)


def live_date_within(db: Path) -> bool:
    listed = json.loads(runner.invoke(app, ["game", "list", "--db", str(db), "--json"]).stdout)
    return bool(listed[0]["created"][:10] <= "2026-11-30")


def test_csv_has_a_row_per_player(season: str) -> None:
    res = stats(season, "--csv", "--until", "2026-11-30")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert [r["player"] for r in rows] == list(EXPECTED)
    assert rows[1]["net"] == "96" and rows[1]["win_rate"] == "0.333" and rows[1]["biggest_patterns"] == "qing_yi_se jiao"


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_table_fits_the_width_without_cutting(width: int, lang: str, season: str) -> None:
    from rich.cells import cell_len

    res = stats(season, "--lang", lang, "--until", "2026-11-30", env={"COLUMNS": str(width)})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert max(cell_len(line) for line in lines) <= width
    assert "…" not in res.stdout
    flat = " ".join(line.strip(" |+") for line in lines)
    for name in ("A", "B", "C", "D", "E", "season.yaml#1", "+96", "-96", "33%"):
        assert name in flat, name
    assert ("清一色" if lang == "zh" else "pure one suit") in flat
    if lang == "en":  # headers are whole words too
        assert "Games" in flat and "Hands" in flat and "Draws" in flat


def test_files_alone_leave_mjcalc_db_out(season: str, tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    assert runner.invoke(app, ["game", "new", "--db", str(db), "--variant", "wuhu315", "--players", "A,B,C,F"]).exit_code == 0
    assert runner.invoke(app, ["game", "add", "--db", str(db), "--winner", "F", "-s", SELF_8]).exit_code == 0
    with_env = stats(season, "--json", env={"MJCALC_DB": str(db)})
    assert "F" not in json.loads(with_env.stdout)["players"]
    alone = stats("--json", env={"MJCALC_DB": str(db)})
    assert json.loads(alone.stdout)["games"] == 1 and "F" in json.loads(alone.stdout)["players"]


def test_without_a_database_there_is_nothing_to_count_and_none_is_made(tmp_path: Path) -> None:
    db = tmp_path / "none.db"
    res = stats("--json", env={"MJCALC_DB": str(db)})
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"players": {}, "patterns": {}, "games": 0, "variants": {}, "complete": True, "left_out": []}
    assert not db.exists()


CLUB_LOG = Path(__file__).resolve().parent.parent / "examples" / "club-season.csv"


def _with_column(tmp_path: Path, name: str, value: str) -> Path:
    rows = list(csv.reader(io.StringIO(CLUB_LOG.read_text(encoding="utf-8"))))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*rows[0], name])
    for row in rows[1:]:
        writer.writerow([*row, value])
    path = tmp_path / "club.csv"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def test_stats_reads_a_log_with_a_column_that_is_not_a_field_as_game_settle_does(tmp_path: Path) -> None:
    log = _with_column(tmp_path, "table_no", "3")
    plain, kept = _json(str(CLUB_LOG)), _json(str(log), "--extra-fields", "keep")
    for data in (plain, kept):
        for p in data["players"].values():
            if p["biggest"]:
                p["biggest"].pop("game")  # named by the file
    assert kept == plain and kept["games"] == 3
    default = stats(str(log), "--json")  # as game settle: each such row is an unknown_field error row, and stderr says so
    assert default.exit_code == 1 and "unknown_field" in default.stderr and "--extra-fields keep" in default.stderr
    settle = runner.invoke(app, ["game", "settle", str(log), "--json"])
    assert settle.exit_code == default.exit_code == 1
    for command in (["stats", str(log)], ["game", "settle", str(log)], ["batch", str(log)]):
        wrong = runner.invoke(app, [*command, "--extra-fields", "drop"])
        assert wrong.exit_code == 2 and "bad_extra_fields" in wrong.stderr, command


def test_stats_takes_the_header_defaults_game_settle_takes(tmp_path: Path) -> None:
    bare = tmp_path / "bare.csv"
    bare.write_text(f"winner,discarder,self_draw,hand\nB,,true,{SELF_8}\nC,A,,{TONG_TIAN}\n", encoding="utf-8")
    assert stats(str(bare), "--json").exit_code == 2  # no variant, no players: bad_game, as game settle says
    args = ("--variant", "wuhu315", "--players", "A,B,C,D", "--dealer", "A")
    settled = json.loads(runner.invoke(app, ["game", "settle", str(bare), *args, "--json"]).stdout)
    counted = _json(str(bare), *args)
    assert {n: p["net"] for n, p in counted["players"].items()} == settled["totals"]


def test_stats_and_game_settle_declare_the_game_file_options_once() -> None:
    """--variant, --players, --dealer and --extra-fields are one declaration (cli/options.reads_game_files):
    the same help in both commands, after each command's own options."""
    shown = []
    for command in (["stats"], ["game", "settle"]):
        text = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"}).stdout
        start = text.index("  -v, --variant NAME")
        shown.append(" ".join(text[start:text.index("  -h, --help", start)].split()))  # the column widths follow each command's widest option
        assert text.index("--lang") < start, command
    assert shown[0] == shown[1] and all(f in shown[0] for f in ("--players A,B,C,D", "--dealer NAME", "--extra-fields error|keep"))


@pytest.mark.parametrize("second", ["same", "./same", "link"])
def test_the_same_file_named_twice_is_read_once_with_a_warning(second: str, season: str, tmp_path: Path) -> None:
    Path("same").write_bytes(Path(season).read_bytes())
    Path("link").symlink_to("same")
    once = _json("same")
    res = stats("same", second, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["games"] == once["games"] == 3
    assert "warning" in res.stderr and "read once" in res.stderr and second in res.stderr
    other = Path("other.yaml")
    other.write_bytes(Path(season).read_bytes())  # a copy is another file: counted again
    assert json.loads(stats("same", str(other), "--json").stdout)["games"] == 6


def test_a_game_whose_chips_run_out_says_how_to_go_on(tmp_path: Path) -> None:
    log = tmp_path / "short.csv"
    log.write_text("game,variant,players,dealer,chips,winner,self_draw,hand\n"
                   f"1,wuhu315,\"A,B,C,D\",A,10,B,true,{SELF_8}\n1,,,,,B,true,{SELF_8}\n1,,,,,C,true,{SELF_8}\n", encoding="utf-8")
    for command in (["game", "settle", str(log)], ["stats", str(log)]):
        res = runner.invoke(app, command)
        assert res.exit_code == 1, command
        assert "game_over" in res.stderr
        assert "`chips`" in res.stderr and "chips: 0" in res.stderr and "new `game` id" in res.stderr, res.stderr


def test_points_of_two_variants_are_never_one_net(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    games = [SEASON[0], {**SEASON[1], "variant": "wuhu525"}]
    Path("mixed.yaml").write_text(yaml.safe_dump(games, allow_unicode=True), encoding="utf-8")
    res = stats("mixed.yaml", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    alone = [json.loads(stats(str(_one(game, i)), "--json").stdout) for i, game in enumerate(games)]
    assert list(data["variants"]) == ["wuhu315", "wuhu525"]
    for (variant, part), one in zip(data["variants"].items(), alone, strict=True):
        assert part == {**one["variants"][variant]}  # each variant's standings are its games' alone
        for name, p in one["players"].items():
            assert data["players"][name]["by_variant"][variant] == {k: v for k, v in p.items() if k not in ("biggest", "by_variant")}
    first, second = (one["players"]["A"]["net"] for one in alone)
    assert first == -103 and second != 0
    assert data["players"]["A"]["by_variant"]["wuhu315"]["net"] == first and data["players"]["A"]["net"] == first + second
    rows = list(csv.DictReader(io.StringIO(stats("mixed.yaml", "--csv").stdout)))
    assert [(r["player"], r["variant"], r["net"]) for r in rows if r["player"] == "A"] == [("A", "wuhu315", "-103"), ("A", "wuhu525", str(second))]
    table = stats("mixed.yaml", "--lang", "en", env={"COLUMNS": "100"}).stdout
    assert "wuhu315: 1 games, 4 hands" in table and "wuhu525: 1 games, 2 hands" in table
    assert f"{first + second:+d}" not in table  # A's two nets are never added


def _one(game: dict[str, Any], i: int) -> Path:
    path = Path(f"alone{i}.yaml")
    path.write_text(yaml.safe_dump(game, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_season_folds_as_games_stream_and_keeps_nothing_per_game(fmt: str, tmp_path: Path) -> None:
    import gc

    from mahjong_calc.game.csv_log import to_csv
    from mahjong_calc.game.game_file import GameFile
    from mahjong_calc.game.log import open_games
    from mahjong_calc.game.stats import Season

    games = [{**SEASON[i % 2], "date": f"2026-11-{1 + i % 28:02d}"} for i in range(60)]
    path = tmp_path / f"many.{fmt}"
    if fmt == "jsonl":
        path.write_text("".join(json.dumps({k: v for k, v in g.items() if k != "hands"}) + "\n" + "".join(json.dumps(h) + "\n" for h in g["hands"])
                                for g in games), encoding="utf-8")
    else:
        path.write_text(to_csv([(str(i), {k: v for k, v in g.items() if k != "hands"}, g["hands"]) for i, g in enumerate(games)]), encoding="utf-8")
    del games
    gc.collect()
    before = sum(isinstance(o, dict) and "players" in o and "dealer" in o for o in gc.get_objects())  # SEASON's, the test's own
    season = Season()
    alive = []
    for i, game in enumerate(open_games(str(path)), 1):
        season.add(game, f"many#{i}", game.header.get("date"))
        del game
        gc.collect()
        alive.append(sum(isinstance(o, GameFile) for o in gc.get_objects()))
        heads = sum(isinstance(o, dict) and "players" in o and "dealer" in o for o in gc.get_objects()) - before
        assert heads <= 6, (i, heads)  # a game's own few copies of its header, never those of the games before it
    assert season.games == 60 and season.errors == 0
    assert max(alive) <= 2 and season.history == [] and season.left_out == []  # no game outlives its fold, and no line per game is kept
    # history and left_out (empty: a line per error row): nothing else grows (fields(), not vars(): a compiled
    # Season has no __dict__)
    assert sum(isinstance(getattr(season, f.name), list) for f in dataclasses.fields(season)) == 2
