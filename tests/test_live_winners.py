"""一炮多响 in a live game: `winners:` entered through `mjcalc game add --fields`, the API and
`game settle` alike, settled winner by winner; an error in one winner's entry names that winner."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

PLAYERS = ["王", "李", "张", "赵"]
LI = {"winner": "李", "hand": "123m456m789m11m999m"}  # 清一色: 拉子, 3
ZHANG = {"winner": "张", "hand": "111p222p333s55s", "melds": ["444s@赵"]}  # 对对胡: 拉子, 3; a pung fed by 赵
ZHANG_NOT_A_WIN = {"winner": "张", "hand": "111p222p333s444s57s"}
ZHANG_BAD_TILES = {"winner": "张", "hand": "111p222p333s444s5xs"}
TWO = {"winners": [LI, ZHANG], "discarder": "王"}


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def game(tmp_path: Path, variant: str = "chizhou") -> Path:
    db = tmp_path / "games.sqlite3"
    done = run("game", "new", "--db", str(db), "--variant", variant, "--players", ",".join(PLAYERS))
    assert done.exit_code == 0, done.stderr
    return db


def settled(tmp_path: Path, hands: list[dict[str, Any]], variant: str = "chizhou") -> tuple[int, dict[str, Any]]:
    """`mjcalc game settle --json` of a game record written by hand."""
    path = tmp_path / "record.yaml"
    record = {"variant": variant, "players": PLAYERS, "dealer": "王", "hands": hands}
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")  # JSON is YAML, without yaml.dump's aliases
    done = run("game", "settle", str(path), "--json")
    return done.exit_code, json.loads(done.stdout)


def exported_settles(tmp_path: Path, export: str) -> dict[str, Any]:
    path = tmp_path / "export.yaml"
    path.write_text(export, encoding="utf-8")
    done = run("game", "settle", str(path), "--json")
    assert done.exit_code == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def add(db: Path, *args: str) -> Any:
    return run("game", "add", "--db", str(db), *args)


# --- the CLI -------------------------------------------------------------------------------


def test_game_add_records_several_winners_as_game_settle_settles_them(tmp_path: Path) -> None:
    db = game(tmp_path)
    done = add(db, "--discarder", "王", "--fields", json.dumps({"winners": TWO["winners"]}), "--lang", "en")
    assert done.exit_code == 0, done.stderr
    assert done.stdout.splitlines()[0] == "hand 1: 李+张 wins, discard of 王, 李 value 3, 张 value 3"
    shown = run("game", "show", "--db", str(db), "--json")
    state = json.loads(shown.stdout)
    assert settled(tmp_path, [TWO]) == (0, state)  # the same fold as a game record
    hand = state["hands"][0]
    assert hand["winners"] == ["李", "张"] and [r["value"] for r in hand["result"]] == [3, 3]
    assert hand["settlement"]["changes"] == {"王": -6, "李": 3, "张": 3, "赵": 0}
    # the table shows both winners; the export keeps the form and settles to the same state
    table = run("game", "show", "--db", str(db))
    assert "李+张" in table.stdout and "3+3" in table.stdout
    export = run("game", "export", "--db", str(db)).stdout
    assert yaml.safe_load(export)["hands"] == [TWO]
    assert exported_settles(tmp_path, export) == state


def test_game_add_json_of_several_winners(tmp_path: Path) -> None:
    db = game(tmp_path)
    done = add(db, "--json", "--fields", json.dumps(TWO))  # the discarder may go in --fields too
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["hands"][0]["winners"] == ["李", "张"]


@pytest.mark.parametrize(
    ("entry", "exit_code", "key", "code"),
    [
        (ZHANG_NOT_A_WIN, 1, "reason", "not_a_winning_hand"),
        (ZHANG_BAD_TILES, 2, "error", "unknown_character"),
        ({**ZHANG, "melds": ["444s@张"]}, 2, "error", "self_fed_meld"),
        ({**ZHANG, "colour": "red"}, 2, "error", "unknown_field"),
        ({**ZHANG, "hand": 5}, 2, "error", "bad_field"),
    ],
)
def test_an_error_in_one_winners_entry_names_that_winner(tmp_path: Path, entry: dict[str, Any], exit_code: int, key: str, code: str) -> None:
    db = game(tmp_path)
    fields = json.dumps({"winners": [LI, entry]})
    done = add(db, "--discarder", "王", "--fields", fields)
    assert done.exit_code == exit_code
    assert f"[{code}]: 张: " in done.stderr and "Traceback" not in done.stderr
    as_json = add(db, "--discarder", "王", "--fields", fields, "--json")
    assert as_json.exit_code == exit_code
    error = json.loads(as_json.stdout)[key]
    assert error["code"] == code and error["winner"] == "张" and error["message"].startswith("张: ")
    assert json.loads(run("game", "show", "--db", str(db), "--json").stdout)["hands"] == []  # nothing written
    # game settle's error row says the same
    assert settled(tmp_path, [{"winners": [LI, entry], "discarder": "王"}])[1]["hands"][0]["error"] == error


def test_one_winners_error_stays_as_it_was(tmp_path: Path) -> None:
    db = game(tmp_path)
    done = add(db, "--winner", "张", "--discarder", "王", "--json", ZHANG_NOT_A_WIN["hand"])
    assert done.exit_code == 1
    reason = json.loads(done.stdout)["reason"]
    assert "winner" not in reason and not reason["message"].startswith("张")


def test_a_variant_without_yi_pao_duo_xiang_refuses_the_form(tmp_path: Path) -> None:
    db = game(tmp_path, "wuhu315")
    two = {"winners": [{"winner": "李", "hand": "123456m13m99p555p2m"}, {"winner": "张", "hand": "123456m13m99p555p2m"}]}
    done = add(db, "--discarder", "王", "--fields", json.dumps(two), "--json")
    assert done.exit_code == 2
    assert json.loads(done.stdout)["error"]["code"] == "multiple_winners_not_allowed"
    code, record = settled(tmp_path, [{**two, "discarder": "王"}], "wuhu315")
    assert code == 1 and record["hands"][0]["error"]["code"] == "multiple_winners_not_allowed"
    # even when a winner's entry is also wrong: the form is refused first
    bad = {"winners": [two["winners"][0], {"winner": "钱", "hand": "1m"}], "discarder": "王"}
    assert settled(tmp_path, [bad], "wuhu315")[1]["hands"][0]["error"]["code"] == "multiple_winners_not_allowed"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--winner", "李"], "--winner"),
        (["123m456m789m11m999m"], "HAND"),
        (["--meld", "444s@赵"], "--meld"),
        (["--after-kong"], "--after-kong"),
    ],
)
def test_winners_take_no_one_winners_flags(tmp_path: Path, args: list[str], named: str) -> None:
    db = game(tmp_path)
    done = add(db, "--discarder", "王", "--fields", json.dumps({"winners": TWO["winners"]}), *args)
    assert done.exit_code == 2
    assert "[conflicting_flags]" in done.stderr and named in done.stderr


# --- the API -------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Any:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from mahjong_calc.web.app import create_app

    return TestClient(create_app(tmp_path / "api.sqlite3"), base_url="http://127.0.0.1:8315", raise_server_exceptions=False)


def api_game(client: Any, variant: str = "chizhou") -> int:
    response = client.post("/api/games", json={"variant": variant, "players": PLAYERS, "dealer": "王"})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_api_records_several_winners(client: Any, tmp_path: Path) -> None:
    gid = api_game(client)
    response = client.post(f"/api/games/{gid}/hands", json=TWO)
    assert response.status_code == 200, response.text
    state = response.json()
    assert settled(tmp_path, [TWO]) == (0, state)
    export = client.get(f"/api/games/{gid}/export").text
    assert exported_settles(tmp_path, export) == state


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    ("entry", "status", "key", "code"),
    [(ZHANG_NOT_A_WIN, 422, "reason", "not_a_winning_hand"), (ZHANG_BAD_TILES, 400, "error", "unknown_character")],
)
def test_api_error_names_the_winner(client: Any, entry: dict[str, Any], status: int, key: str, code: str) -> None:
    gid = api_game(client)
    response = client.post(f"/api/games/{gid}/hands", json={"winners": [LI, entry], "discarder": "王"})
    assert response.status_code == status
    error = response.json()[key]
    assert error["code"] == code and error["winner"] == "张" and error["message"].startswith("张: ")
    assert client.get(f"/api/games/{gid}").json()["hands"] == []


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_api_refuses_the_form_where_the_variant_has_no_yi_pao_duo_xiang(client: Any) -> None:
    gid = api_game(client, "wuhu315")
    two = {"winners": [{"winner": "李", "hand": "123456m13m99p555p2m"}, {"winner": "张", "hand": "123456m13m99p555p2m"}], "discarder": "王"}
    response = client.post(f"/api/games/{gid}/hands", json=two)
    assert response.status_code == 400 and response.json()["error"]["code"] == "multiple_winners_not_allowed"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_variants_say_which_allow_several_winners(client: Any) -> None:
    rows = {v["name"]: v["multiple_winners"] for v in client.get("/api/variants").json()}
    assert rows == {"chizhou": True, "pujiang": False, "wuhu315": False, "wuhu525": False}


def test_a_cached_error_is_named_afresh_for_each_winner(tmp_path: Path) -> None:
    # scored hands (and their errors) are cached per game: the second winner's name replaces the first's
    zhao = {**ZHANG_NOT_A_WIN, "winner": "赵"}
    hands = [{"winners": [LI, ZHANG_NOT_A_WIN], "discarder": "王"}, {"winners": [LI, zhao], "discarder": "王"},
             {"winner": "张", "discarder": "王", "hand": ZHANG_NOT_A_WIN["hand"]}]
    rows = settled(tmp_path, hands)[1]["hands"]
    messages = [row["reason"]["message"] if "reason" in row else row["error"]["message"] for row in rows]
    assert [m.split(": ")[0] for m in messages[:2]] == ["张", "赵"] and messages[1].count(":") == 1
    assert rows[2]["error"] == {"code": "not_a_winning_hand", "message": messages[2]} and not messages[2].startswith("张")
