"""`mjcalc advise`: the JSON contract, the sort order, the properties, errors and the table."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.api.advise import Advice, hand_advice
from mahjong_calc.api.waits import hand_waits
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError
from mahjong_calc.core.tiles import format_tiles, parse_tiles, tile_str
from mahjong_calc.present.render_waits import print_advise

runner = CliRunner()

# one hand per variant (the README and docs/advise.md show them)
EXAMPLES = [
    ("wuhu315", "1234567m234p56p99s", {}),
    ("chizhou", "123m456p11z222z3z4z5z", {}),
    ("pujiang", "111m222p33s456s77z1z", {}),
    ("pujiang", "111m222p33s456s7z6m1z", {"wild": "6m"}),
]


def _rows(advice: Advice) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = advice.to_dict()["discards"]
    return rows


@pytest.mark.parametrize(("variant", "hand", "flags"), EXAMPLES)
def test_the_json_contract(variant: str, hand: str, flags: dict[str, str]) -> None:
    data = hand_advice(hand, variant=variant, **flags).to_dict()
    assert set(data) <= {"variant", "hand", "shanten", "discards", "win", "unreachable"}
    assert {"variant", "hand", "shanten", "discards"} <= set(data)
    assert data["variant"] == variant
    assert data["shanten"] == min(r["shanten"] for r in data["discards"])
    assert sorted(r["tile"] for r in data["discards"]) == sorted({tile_str(t) for t in parse_tiles(hand)})
    for row in data["discards"]:
        keys = ({"tile", "shanten", "ukeire", "ukeire_count"} | ({"waits", "expected"} if row["shanten"] == 0 else set())
                | ({"unreachable"} if row["shanten"] is None else set()))
        assert set(row) == keys
        assert row["ukeire_count"] == sum(u["left"] for u in row["ukeire"])
        assert all(set(u) == {"tile", "left"} for u in row["ukeire"])


@pytest.mark.parametrize(("variant", "hand", "flags"), EXAMPLES)
def test_rows_come_best_first(variant: str, hand: str, flags: dict[str, str]) -> None:
    rows = _rows(hand_advice(hand, variant=variant, **flags))
    keys = [(r["shanten"], -r["ukeire_count"], -(r.get("expected") or 0)) for r in rows]
    assert keys == sorted(keys)


def test_a_wuhu_hand_where_the_standard_best_discard_loses_ba_zhi() -> None:
    # 1234567m 234p 56p 99s: the standard best throw is 1m, 4m or 7m (听牌 on 4p/7p), but it leaves
    # six 万 and no 八支: shanten 2. Under 八支 the best throws are the 筒 tiles 2p 3p 5p 6p (shanten 1).
    rows = {r["tile"]: r for r in _rows(hand_advice("1234567m234p56p99s"))}
    assert {t for t, r in rows.items() if r["shanten"] == 1} == {"2p", "3p", "5p", "6p", "9s"}
    assert [rows[t]["shanten"] for t in ("1m", "4m", "7m")] == [2, 2, 2]
    assert _rows(hand_advice("1234567m234p56p99s"))[0]["tile"] == "2p"


def test_a_tenpai_row_has_exactly_the_waits_of_its_thirteen_tiles() -> None:
    advice = hand_advice("2345678m139p777z5m")
    row = _rows(advice)[0]
    assert row["tile"] == "9p" and row["shanten"] == 0
    waits = hand_waits("2345678m13p777z5m").to_dict()["waits"]
    assert row["waits"] == waits
    assert [u["tile"] for u in row["ukeire"]] == [w["tile"] for w in waits]
    value = score_hand("2345678m13p777z5m2p", win="2p", self_draw=True).value
    assert row["expected"] == value


def test_expected_is_the_copies_left_weighted_self_draw_value() -> None:
    advice = hand_advice("1112345678999m5p", variant="wuhu315")
    for row in _rows(advice):
        if row["shanten"] != 0:
            continue
        left = {u["tile"]: u["left"] for u in row["ukeire"]}
        values = {w["tile"]: w["self_draw"].get("value", 0) for w in row["waits"]}
        weight = sum(left[t] for t in values)
        assert row["expected"] == round(sum(left[t] * values[t] for t in values) / weight, 2)


def test_seen_tiles_lower_the_copies_left() -> None:
    plain = {r["tile"]: r for r in _rows(hand_advice("2345678m139p777z5m"))}
    seen = {r["tile"]: r for r in _rows(hand_advice("2345678m139p777z5m", seen="2p2p"))}
    assert plain["9p"]["ukeire"] == [{"tile": "2p", "left": 4}]
    assert seen["9p"]["ukeire"] == [{"tile": "2p", "left": 2}]
    assert seen["9p"]["waits"] == plain["9p"]["waits"]  # the waits are `mjcalc waits`'s, which has no --seen


def test_the_wild_indicator_is_one_copy_fewer() -> None:
    rows = _rows(hand_advice("111m222p33s456s7z6m1z", variant="pujiang", wild="6m"))
    for row in rows:
        for u in row["ukeire"]:
            if u["tile"] == "6m":
                held = 1 if row["tile"] != "6m" else 0
                assert u["left"] == 4 - 1 - held


def test_a_winning_hand_says_so_first_and_still_lists_the_discards() -> None:
    data = hand_advice("123456789m11p555p").to_dict()
    assert data["shanten"] == -1
    assert data["win"] == score_hand("123456789m11p555p", self_draw=True).to_dict()
    assert data["discards"] and list(data)[-1] == "win"


def _random_hand(rng: random.Random) -> str:
    wall = [t for t in list(range(27)) + [33] for _ in range(4)]
    return format_tiles(rng.sample(wall, 14))


@pytest.mark.slow
def test_drawing_a_useful_tile_of_the_best_row_never_raises_the_shanten() -> None:
    rng = random.Random("advise-property")
    for _ in range(12):
        hand = _random_hand(rng)
        best = _rows(hand_advice(hand))[0]
        kept = parse_tiles(hand)
        kept.remove(parse_tiles(best["tile"])[0])
        for u in best["ukeire"]:
            after = hand_advice(format_tiles(kept + parse_tiles(u["tile"])))
            assert after.shanten <= best["shanten"] - 1 or (best["shanten"] == 0 and after.win is not None), (hand, u)


@pytest.mark.parametrize(("variant", "hand", "flags"), EXAMPLES)
def test_every_tenpai_row_has_the_waits_of_mjcalc_waits(variant: str, hand: str, flags: dict[str, str]) -> None:
    for row in _rows(hand_advice(hand, variant=variant, **flags)):
        kept = parse_tiles(hand)
        kept.remove(parse_tiles(row["tile"])[0])
        if row["shanten"] == 0:
            assert row["waits"] == hand_waits(format_tiles(kept), variant=variant, **flags).to_dict()["waits"]


# --- errors and the CLI -----------------------------------------------------------


def test_a_hand_of_the_wrong_size_says_how_many_tiles_it_needs() -> None:
    with pytest.raises(InputError) as err:
        hand_advice("2345678m139p777z")
    assert err.value.code == "wrong_tile_count" and "needs 14" in err.value.message
    with pytest.raises(InputError) as err:
        hand_advice("2345678m139p", melds=["777z"])
    assert err.value.code == "wrong_tile_count" and "needs 11" in err.value.message


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["2345678m139p777z"], "wrong_tile_count", "needs 14"),
        (["2345678m139p777z5x"], "unknown_character", "column"),
        (["2345678m139p777z5"], "missing_suit", "column"),
        (["2345678m139p777z5m", "--seen", "1p1p1p1p"], "too_many_copies", "1p"),
        (["2345678m139p777z5m", "--wild", "5m"], "flag_not_in_variant", "--wild"),
        (["2345678m139p111z5m"], "tile_not_in_variant", "1z"),
    ],
)
def test_bad_input_exits_2_with_its_code(args: list[str], code: str, needle: str) -> None:
    out = runner.invoke(app, ["advise", *args])
    assert out.exit_code == 2, out.output
    assert f"[{code}]" in out.stderr and needle in out.stderr
    out = runner.invoke(app, ["advise", *args, "--json"])
    assert out.exit_code == 2
    assert json.loads(out.stdout)["error"]["code"] == code


def test_the_cli_prints_the_library_json() -> None:
    out = runner.invoke(app, ["advise", "2345678m", "139p777z5m", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == hand_advice("2345678m139p777z5m").to_dict()
    out = runner.invoke(app, ["advise", "111m222p33s456s7z6m1z", "--variant", "pujiang", "--wild", "6m", "--seen", "3s", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == hand_advice("111m222p33s456s7z6m1z", variant="pujiang", wild="6m", seen="3s").to_dict()
    out = runner.invoke(app, ["advise", "123456m13p99p5m", "--meld", "777z", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == hand_advice("123456m13p99p5m", melds=["777z"]).to_dict()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("width", [40, 80])
def test_the_table_fits_and_cuts_nothing(lang: str, width: int) -> None:
    from rich.cells import cell_len

    advice = hand_advice("2345678m139p777z5m")
    buf = io.StringIO()
    print_advise(advice, lang, buf, width=width)
    text = buf.getvalue()
    assert max(cell_len(line) for line in text.splitlines()) <= width
    assert "…" not in text
    squeezed = text.replace(" ", "").replace("|", "").replace("\n", "")
    for row in _rows(advice):
        assert row["tile"] in text
    assert ("向听" if lang == "zh" else "Sh") in squeezed
    out = runner.invoke(app, ["advise", "2345678m139p777z5m", "--lang", lang], env={"COLUMNS": str(width)})
    assert out.exit_code == 0
    assert max(cell_len(line) for line in out.output.splitlines()) <= width


def test_the_table_says_when_the_hand_already_wins() -> None:
    out = runner.invoke(app, ["advise", "123456789m11p555p", "--lang", "en"], env={"COLUMNS": "80"})
    assert out.exit_code == 0
    assert "Already a win" in out.output


# --- hands a rule refuses, and 白板 as the 财神's face ------------------------------------

CHOW_RESTRICTED = [
    ("6z6z6z6m6m1p2p3p", ["234m", "333p"]),
    ("6z6m1p6m3p2p6z6z", ["2m3m4m", "3p3p3p"]),
    ("4m4m7p5p9p8p5p5p", ["8p8p8p", "5m6m7m"]),
]


@pytest.mark.parametrize(("hand", "melds"), CHOW_RESTRICTED)
def test_a_complete_chizhou_hand_the_chow_restriction_refuses_gets_rows(hand: str, melds: list[str]) -> None:
    meld_args = [a for m in melds for a in ("--meld", m)]
    scored = runner.invoke(app, ["score", hand, "--variant", "chizhou", *meld_args, "--self-draw", "--json"])
    assert scored.exit_code == 2 and json.loads(scored.stdout)["error"]["code"] == "chow_restricted"
    out = runner.invoke(app, ["advise", hand, "--variant", "chizhou", *meld_args, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert "win" not in data and data["shanten"] >= 0
    assert sorted(r["tile"] for r in data["discards"]) == sorted({tile_str(t) for t in parse_tiles(hand)})
    # 1 花 or none with these melds: every target needs 2 花, so no row is 听牌 on a plain shape
    for row in data["discards"]:
        assert row["shanten"] > 0


WHITE_AS_FACE = [
    # (hand, flags, discard, the tile a drawn 白板 or the draw completes with)
    ("1m1m1m4s4s4s7z7z7z5s5s1p3p9m", {"wild": "2p"}, "9m", "5z"),
    ("5s6s1p1p5s", {"wild": "2p", "melds": ["888s", "111s", "555p"]}, "1p", "3p"),
    ("9p7s9m7s7s3m9m3m", {"wild": "8m", "melds": ["222z"], "concealed_kongs": ["4444z"]}, "9m", "7m"),
]


@pytest.mark.parametrize(("hand", "flags", "discard", "tile"), WHITE_AS_FACE)
def test_a_drawn_white_dragon_playing_the_wild_face_counts(hand: str, flags: dict[str, Any], discard: str, tile: str) -> None:
    advice = hand_advice(hand, variant="pujiang", **flags)
    row = next(r for r in _rows(advice) if r["tile"] == discard)
    assert tile in [u["tile"] for u in row["ukeire"]]
    kept = parse_tiles(hand)
    kept.remove(parse_tiles(discard)[0])
    waits = hand_waits(format_tiles(kept), variant="pujiang", **flags)
    if waits.waits:  # 听牌: exactly the waits of `mjcalc waits`, a 白板 among them
        assert row["shanten"] == 0
        assert [w["tile"] for w in row["waits"]] == [tile_str(w.tile) for w in waits.waits]
        assert tile in [w["tile"] for w in row["waits"]]
        won = score_hand(format_tiles(kept) + tile, variant="pujiang", self_draw=True, **flags)
        assert won.value > 0
    else:
        assert row["shanten"] == 1


def test_a_pung_target_whose_pair_is_a_held_wild_and_the_last_copy_of_a_tile() -> None:
    # 111m 555m and 3m + the wild 2m as the pair (全碰子): the last 3m is held, the pair needs no other copy
    advice = hand_advice("1m1m1m2m3m5m5m1m", variant="pujiang", melds=["333m", "444m"], wild="2m")
    row = next(r for r in _rows(advice) if r["tile"] == "1m")
    assert row["shanten"] == 0 and "5m" in [w["tile"] for w in row["waits"]]


def test_a_wild_still_to_draw_may_be_the_pair_of_a_tile_with_no_copy_left() -> None:
    # 1111m 555m and the melds 333m 444m: drawing the 财神 2m makes 111m 555m + 1m 财神 (全碰子)
    advice = hand_advice("1m1m1m1m5m5m5m3m", variant="pujiang", melds=["333m", "444m"], wild="2m")
    row = next(r for r in _rows(advice) if r["tile"] == "3m")
    assert row["shanten"] == 0 and [w["tile"] for w in row["waits"]] == ["2m"]
