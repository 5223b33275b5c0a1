"""A tile exists 4 times: a game hand whose record shows more copies anywhere on the table
(the winner's tiles, other players' `exposed:` melds, another winner's tiles, the 财神
indicator) is an error row `too_many_copies`, in `game settle`, `game add` and the API alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError
from mahjong_calc.core.hand import check_table_copies
from mahjong_calc.live import Store

DATA = Path(__file__).resolve().parent / "data"
PLAYERS = ["王", "李", "张", "赵"]
WIN = "123456m13m99p555p2m"  # Wuhu: two 1m, three 5p


def settle(tmp_path: Path, header: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump({**header, "hands": [hand]}, allow_unicode=True), encoding="utf-8")
    done = CliRunner().invoke(app, ["game", "settle", str(path), "--json"])
    assert "Traceback" not in done.output
    return {"exit": done.exit_code, **json.loads(done.stdout)["hands"][0]}


def test_the_data_file_refuses_impossible_tables() -> None:
    done = CliRunner().invoke(app, ["game", "settle", str(DATA / "chizhou-too-many-copies.yaml"), "--json"])
    assert done.exit_code == 1
    data = json.loads(done.stdout)
    errors = [h.get("error") for h in data["hands"]]
    assert errors[0] == {"code": "too_many_copies",
                         "message": "3m appears 6 times on the table (Ann's hand and melds 3, Cy's melds 3); there are only 4"}
    assert errors[1] is None
    assert errors[2] == {"code": "too_many_copies",
                         "message": "1m appears 6 times on the table (Ann's hand and melds 3, Cy's hand and melds 3); there are only 4"}
    # hand 2 alone moves money: 反包 Bo 3 units of 3 (他自摸，你就要给他3个), Cy and Di 3 each
    assert data["totals"] == {"Ann": 15, "Bo": -9, "Cy": -3, "Di": -3}
    assert "hand 1: error [too_many_copies]: 3m appears 6 times" in done.stderr


WUHU = {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}
PUJIANG = {"variant": "pujiang", "players": PLAYERS, "dealer": "王"}
PUJIANG_WIN = {"winner": "张", "hand": "111m222p333s444s3m7z", "wild": "3m", "self_draw": True}  # one 3m held

# (case, header, hand, the error's message or None for a hand that settles)
CASES = [
    ("twelve 1m: the winner's two, 赵's pung, 张's kong, 王's pung", WUHU,
     {"winner": "李", "discarder": "王", "hand": WIN, "exposed": {"赵": ["111m@李"], "张": ["1111m@王"], "王": ["111m@张"]}},
     "1m appears 12 times on the table (李's hand and melds 2, 王's melds 3, 张's melds 4, 赵's melds 3); there are only 4"),
    ("the winner's pung and 赵's chow: four 5p, fine", WUHU,
     {"winner": "李", "discarder": "王", "hand": "123456m13m99p2m", "melds": ["555p@张"], "exposed": {"赵": ["567p@张"]}},
     None),
    ("the winner's pung and two in 赵's chows", WUHU,
     {"winner": "李", "discarder": "王", "hand": "123456m13m99p2m", "melds": ["555p@张"], "exposed": {"赵": ["345p@张", "456p@王"]}},
     "5p appears 5 times on the table (李's hand and melds 3, 赵's melds 2); there are only 4"),
    ("four 3m in play, one of them the 财神 indicator: fine", PUJIANG,
     {**PUJIANG_WIN, "exposed": {"李": ["345m@王", "123m@赵"]}}, None),
    ("the 财神 indicator is a real tile: the 5th 3m", PUJIANG,
     {**PUJIANG_WIN, "exposed": {"李": ["333m@王"]}},
     "3m appears 5 times on the table (张's hand and melds 1, 李's melds 3, the 财神 indicator 1); there are only 4"),
]


@pytest.mark.parametrize(("case", "header", "hand", "message"), CASES, ids=[c[0] for c in CASES])
def test_copies_across_players(tmp_path: Path, case: str, header: dict[str, Any], hand: dict[str, Any], message: str | None) -> None:
    row = settle(tmp_path, header, hand)
    if message is None:
        assert row["exit"] == 0 and "error" not in row, row
        return
    assert row["exit"] == 1
    assert row["error"] == {"code": "too_many_copies", "message": message}


def test_the_shared_check() -> None:
    check_table_copies([("a", [0, 0]), ("b", [0, 0])])
    with pytest.raises(InputError) as err:
        check_table_copies([("a", [0, 0, 1]), ("b", [0, 0, 0])])
    assert err.value.code == "too_many_copies" and err.value.message == "1m appears 5 times on the table (a 2, b 3); there are only 4"


IMPOSSIBLE = {"winner": "李", "discarder": "王", "hand": WIN, "exposed": {"赵": ["111m@李"], "张": ["111m@王"]}}
IMPOSSIBLE_MESSAGE = "1m appears 8 times on the table (李's hand and melds 2, 张's melds 3, 赵's melds 3); there are only 4"


def test_live_add_refuses_and_writes_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        game = store.new_game(WUHU)
        with pytest.raises(InputError) as err:
            store.add(game.id, IMPOSSIBLE)
        assert (err.value.code, err.value.message) == ("too_many_copies", IMPOSSIBLE_MESSAGE)
        assert store.hands(game.id) == []
    db = tmp_path / "cli.db"
    runner = CliRunner()
    assert runner.invoke(app, ["game", "new", "--db", str(db), "--players", ",".join(PLAYERS), "--dealer", "王"]).exit_code == 0
    fields = json.dumps({"exposed": IMPOSSIBLE["exposed"]}, ensure_ascii=False)
    done = runner.invoke(app, ["game", "add", "--db", str(db), "--winner", "李", "--discarder", "王", "--fields", fields, WIN, "--json"])
    assert done.exit_code == 2, done.output
    assert json.loads(done.stdout)["error"] == {"code": "too_many_copies", "message": IMPOSSIBLE_MESSAGE}


def test_the_api_refuses(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from mahjong_calc.web.app import create_app

    client = TestClient(create_app(tmp_path / "g.db"), base_url="http://127.0.0.1:8315", raise_server_exceptions=False)
    gid = client.post("/api/games", json=WUHU).json()["id"]
    response = client.post(f"/api/games/{gid}/hands", json=IMPOSSIBLE)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == {"code": "too_many_copies", "message": IMPOSSIBLE_MESSAGE}
    assert client.get(f"/api/games/{gid}").json()["hands"] == []
