"""Game files of many games: CSV logs, JSON Lines with a header per game, YAML lists; totals over all of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.game import fewest_transfers
from mahjong_calc.game.csv_log import to_csv
from mahjong_calc.game.log import open_games

ROOT = Path(__file__).resolve().parent.parent
CSV_LOG = ROOT / "examples" / "club-season.csv"
YAML_TWIN = ROOT / "tests" / "data" / "club-season.yaml"
CLUB = ROOT / "examples" / "wuhu315-club.yaml"


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


def settle_json(path: Path | str, *args: str) -> dict[str, Any]:
    res = run("game", "settle", str(path), "--json", *args)
    assert res.exit_code == 0, res.output
    data: dict[str, Any] = json.loads(res.stdout)
    return data


def jsonl_twin(tmp_path: Path) -> Path:
    """The YAML twin as JSON Lines: a header line per game, then its hands."""
    lines = []
    for game in yaml.safe_load(YAML_TWIN.read_text(encoding="utf-8")):
        hands = game.pop("hands")
        lines += [json.dumps({**game, "date": str(game["date"])}, ensure_ascii=False), *(json.dumps(h, ensure_ascii=False) for h in hands)]
    path = tmp_path / "season.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_csv_log_and_its_yaml_twin_settle_to_the_same_totals(tmp_path: Path) -> None:
    csv_report = settle_json(CSV_LOG)
    assert csv_report == settle_json(YAML_TWIN) == settle_json(jsonl_twin(tmp_path))
    assert csv_report["totals"] == {"王": -150, "李": 16, "张": 93, "赵": 75, "钱": -34}
    assert sum(csv_report["totals"].values()) == 0


def test_several_games_print_each_game_then_the_totals_over_all(tmp_path: Path) -> None:
    report = settle_json(YAML_TWIN)
    assert list(report) == ["games", "totals", "transfers", "complete", "left_out"]
    assert report["complete"] is True and report["left_out"] == []
    totals: dict[str, int] = {}
    for i, game in enumerate(yaml.safe_load(YAML_TWIN.read_text(encoding="utf-8"))):
        path = tmp_path / f"g{i}.yaml"
        path.write_text(yaml.safe_dump(game, allow_unicode=True), encoding="utf-8")
        alone = settle_json(path)
        assert report["games"][i] == alone  # each game's object, as a one-game file prints it
        for name, n in alone["totals"].items():
            totals[name] = totals.get(name, 0) + n
    assert report["totals"] == totals
    names = list(totals)
    assert len(report["transfers"]) == len(fewest_transfers(list(totals.values())))
    balance = dict.fromkeys(names, 0)
    for t in report["transfers"]:
        balance[t["from"]] -= t["amount"]
        balance[t["to"]] += t["amount"]
    assert balance == totals
    table = run("game", "settle", str(CSV_LOG))
    assert table.exit_code == 0, table.output
    assert "game 1 · wuhu315 · 2026-11-06" in table.stdout and "3 局合计" in table.stdout
    assert table.stdout.count("结算:") == 4


def _as_csv(path: Path, tmp_path: Path) -> Path:
    game = yaml.safe_load(path.read_text(encoding="utf-8"))
    hands = game.pop("hands")
    out = tmp_path / (path.stem + ".csv")
    out.write_text(to_csv([("1", game, hands)]), encoding="utf-8")
    return out


@pytest.mark.parametrize("args", [(), ("--json",), ("--lang", "en")])
def test_a_one_game_csv_prints_what_its_yaml_prints(args: tuple[str, ...], tmp_path: Path) -> None:
    csv_path = _as_csv(CLUB, tmp_path)
    one = run("game", "settle", str(CLUB), *args)
    other = run("game", "settle", str(csv_path), *args)
    assert one.exit_code == other.exit_code == 0
    assert other.stdout == one.stdout
    listed = tmp_path / "list.yaml"
    listed.write_text(yaml.safe_dump([yaml.safe_load(CLUB.read_text(encoding="utf-8"))], allow_unicode=True), encoding="utf-8")
    assert run("game", "settle", str(listed), *args).stdout == one.stdout  # a list of one game: one game


def test_the_header_comes_from_options_when_no_column_gives_it(tmp_path: Path) -> None:
    log = tmp_path / "sitting.csv"
    log.write_text("winner,discarder,self_draw,hand\n李,,true,123456m13m99p555p2m\n张,王,,123m456m789m11p999p\n", encoding="utf-8")
    res = run("game", "settle", str(log), "--json", "--variant", "wuhu315", "--players", "王,李,张,赵", "--dealer", "王")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["totals"] == {"王": -13, "李": 19, "张": 7, "赵": -13}
    missing = run("game", "settle", str(log))
    assert missing.exit_code == 2 and "bad_game" in missing.stderr
    clash = run("game", "settle", str(CSV_LOG), "--variant", "chizhou")
    assert clash.exit_code == 2 and "--variant 'chizhou' is given" in clash.stderr and clash.stdout == ""


@pytest.mark.parametrize(("text", "words"), [
    ("game,variant,players,dealer,winner,self_draw,hand\n1,wuhu315,\"A,B,C,D\",A,B,true,123456m13m99p555p2m\n"
     "2,wuhu315,\"A,B,C\",A,B,true,123456m13m99p555p2m\n", "players"),
    ("game,variant,players,dealer,winner,self_draw,hand\n1,wuhu315,\"A,B,C,D\",A,B,true,123456m13m99p555p2m\n"
     "2,nosuch,\"A,B,C,D\",A,B,true,123456m13m99p555p2m\n", "nosuch"),
])
def test_a_bad_header_in_any_game_stops_before_a_hand_is_settled(text: str, words: str, tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_text(text, encoding="utf-8")
    res = run("game", "settle", str(log))
    assert res.exit_code == 2 and res.stdout == "" and words in res.stderr and "line 3" in res.stderr


def test_a_header_field_that_changes_inside_a_game_is_an_error_row(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_text("game,variant,players,dealer,winner,self_draw,hand\n1,wuhu315,\"A,B,C,D\",A,B,true,123456m13m99p555p2m\n"
                   "1,wuhu525,,,C,true,123456m13m99p555p2m\n1,wuhu315,,,C,true,123456m13m99p555p2m\n", encoding="utf-8")
    res = run("game", "settle", str(log), "--json")
    assert res.exit_code == 1
    hands = json.loads(res.stdout)["hands"]
    assert hands[1]["error"]["code"] == "conflicting_fields" and "line 3: variant" in hands[1]["error"]["message"]
    assert "error" not in hands[2]  # the same value again is fine
    assert "mjcalc: hand 2: error [conflicting_fields]" in res.stderr


def test_a_message_names_its_place_once(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_text("game,date,variant,players,dealer,winner,self_draw,hand,exposed\n"
                   "1,2026-11-01,wuhu315,\"A,B,C,D\",A,B,true,123456m13m99p555p2m,\n"
                   "1,2026-11-02,,,,C,true,123456m13m99p555p2m,\n1,,,,,C,true,123456m13m99p555p2m,{bad\n", encoding="utf-8")
    res = run("game", "settle", str(log), "--json")
    assert res.exit_code == 1
    messages = [h["error"]["message"] for h in json.loads(res.stdout)["hands"] if "error" in h]
    assert [m.split(":")[0] for m in messages] == ["line 3", "line 4"]
    assert messages[0].startswith("line 3: date: '2026-11-02' differs")
    for text in (*messages, res.stderr):
        assert "line 3: line 3" not in text and "line 4: line 4" not in text


def test_error_lines_name_the_game_when_the_file_has_several(tmp_path: Path) -> None:
    games = yaml.safe_load(YAML_TWIN.read_text(encoding="utf-8"))
    games[1]["hands"][0]["winner"] = "nobody"
    path = tmp_path / "season.yaml"
    path.write_text(yaml.safe_dump(games, allow_unicode=True), encoding="utf-8")
    res = run("game", "settle", str(path))
    assert res.exit_code == 1
    assert "mjcalc: game 2: hand 1: error [unknown_player]" in res.stderr


def test_games_are_read_as_they_are_settled() -> None:
    games = open_games(str(CSV_LOG))
    assert games.count == 3
    seen = [(g.label, g.header["date"], len(list(g.hands))) for g in games]
    assert seen == [("1", "2026-11-06", 4), ("2", "2026-11-13", 3), ("3", "2026-11-20", 3)]


def test_a_bad_date_is_bad_game(tmp_path: Path) -> None:
    game = {**yaml.safe_load(CLUB.read_text(encoding="utf-8")), "date": "30/11/2026"}
    path = tmp_path / "g.yaml"
    path.write_text(yaml.safe_dump(game, allow_unicode=True), encoding="utf-8")
    res = run("game", "settle", str(path))
    assert res.exit_code == 2 and "date" in res.stderr


def test_many_balances_settle_greedily_in_at_most_n_minus_one_transfers() -> None:
    totals = [5, -3, 7, -9, 2, -2, 11, -4, -6, 1, -1, 3, -4]
    out = fewest_transfers(totals)
    assert len(out) <= len([t for t in totals if t]) - 1
    balance = [0] * len(totals)
    for a, b, n in out:
        balance[a] -= n
        balance[b] += n
    assert balance == totals


def test_extra_fields_keep_echoes_columns_that_are_not_fields(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_text("date,table,winner,self_draw,hand,note\n2026-11-06,7,李,true,123456m13m99p555p2m,first\n"
                   ",7,张,true,123456m13m99p555p2m,\n", encoding="utf-8")
    common = ("--json", "--variant", "wuhu315", "--players", "王,李,张,赵", "--dealer", "王")
    default = run("game", "settle", str(log), *common)
    assert default.exit_code == 1
    assert [h["error"]["code"] for h in json.loads(default.stdout)["hands"]] == ["unknown_field", "unknown_field"]
    kept = run("game", "settle", str(log), *common, "--extra-fields", "keep")
    assert kept.exit_code == 0, kept.output
    hands = json.loads(kept.stdout)["hands"]
    assert [h["extra"] for h in hands] == [{"table": "7"}, {"table": "7"}]  # a note column is the hand's note, not an extra
    assert [h.get("note") for h in hands] == ["first", None]
    assert list(hands[0])[-2:] == ["note", "extra"]
    game = {**yaml.safe_load(CLUB.read_text(encoding="utf-8"))}
    game["hands"][0]["seat_note"] = {"any": ["thing"]}
    path = tmp_path / "g.yaml"
    path.write_text(yaml.safe_dump(game, allow_unicode=True), encoding="utf-8")
    data = settle_json(path, "--extra-fields", "keep")
    assert data["hands"][0]["extra"] == {"seat_note": {"any": ["thing"]}} and "extra" not in data["hands"][1]
    plain = settle_json(CLUB)
    for hand in data["hands"]:
        hand.pop("extra", None)
    assert data == plain


def test_the_progress_bar_counts_hands_on_a_terminal_only() -> None:
    import io

    from mahjong_calc.cli.game import PROGRESS_EVERY, Bar

    screen = io.StringIO()
    bar = Bar(screen)
    bar.advance(PROGRESS_EVERY)
    bar.advance(PROGRESS_EVERY)
    bar.progress.refresh()
    bar.stop()
    assert f"{2 * PROGRESS_EVERY} hands" in screen.getvalue() and "hands/s" in screen.getvalue()
    quiet = Bar()  # stderr is not a terminal here
    assert quiet.progress is None
    quiet.advance(5)
    quiet.stop()
    res = run("game", "settle", str(CSV_LOG))
    assert res.exit_code == 0 and res.stderr == ""


@pytest.mark.parametrize(("name", "text", "words"), [
    ("a.csv", "game,hand,hand\n1,x,y\n", "the header repeats column(s) hand"),
    ("b.csv", "game,winner,hand\n", "the CSV log has no rows"),
    ("c.jsonl", '{"winner": "B", "self_draw": true, "hand": "123456m13m99p555p2m"}\n'
                '{"variant": "wuhu315", "players": ["A", "B", "C", "D"], "dealer": "A"}\n'
                '{"variant": "wuhu315", "players": ["A", "B", "C", "D"], "dealer": "A"}\n', "a game's header comes before its hands"),
    ("d.yaml", "[]\n", "the list of games is empty"),
    ("e.yaml", "- 3\n", "game 1: a game is a mapping"),
    ("f.yaml", "- {variant: wuhu315, players: [A, B, C, D], dealer: A, hands: []}\n- {variant: wuhu315, players: [A, B, C, D], "
               "dealer: A, hands: 3}\n", "game 2: hands: must be a list"),
])
def test_a_file_of_games_that_cannot_be_read_is_bad_game(name: str, text: str, words: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    res = run("game", "settle", str(path), "--json")
    assert res.exit_code == 2 and words in res.stderr
    assert json.loads(res.stdout)["error"]["code"] == "bad_game"


def test_a_bad_cell_or_row_is_that_hands_error_row_and_stdin_is_sniffed(tmp_path: Path) -> None:
    text = ('game,variant,players,dealer,winner,discarder,self_draw,hand,exposed\n1,wuhu315,"A,B,C,D",A,B,A,,123m456m789m11p999p,{bad\n'
            "1,,,,B,A\n1,,,,C,,maybe,123456m13m99p555p2m,\n1,,,,C,,sure,123456m13m99p555p2m,\n")
    res = run("game", "settle", "-", "--json", stdin=text)
    assert res.exit_code == 1
    errors = [h["error"]["code"] for h in json.loads(res.stdout)["hands"]]
    assert errors == ["bad_field", "bad_csv_row", "bad_field", "bad_field"]
