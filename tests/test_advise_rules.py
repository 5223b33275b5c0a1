"""`advise` asks the scorer's own rules: no draw that the scorer would refuse, and a hand from
which no win can be reached is said to be so, with the rule that stops it, never a number."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.api.advise import hand_advice
from mahjong_calc.api.waits import hand_waits
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError, NotAWin
from mahjong_calc.core.language import speaking
from mahjong_calc.core.tiles import format_tiles, parse_tiles
from mahjong_calc.present.render_waits import print_advise

runner = CliRunner()

# --- the wilds a hand may hold ---------------------------------------------------------
# L10 "财神有三个，可以代替任何牌": the indicator's other three copies are the wilds, and a hand
# holds at most those, melds counted (`too_many_wilds`). Advise draws under the same rule.

WILD_PUNGS = [
    # (hand, melds, wild, the row whose draws must not hold the wild)
    ("5m999p7s", ["777z", "333z", "444p"], "7z", "9p"),  # 中 the 财神, melded as a pung
    ("1555m9p", ["333p", "888p", "333z"], "8p", "5m"),  # 8p the 财神, melded as a pung
]


@pytest.mark.parametrize(("hand", "melds", "wild", "row"), WILD_PUNGS)
def test_no_draw_of_a_wild_the_scorer_refuses(hand: str, melds: list[str], wild: str, row: str) -> None:
    advice = hand_advice(hand, variant="pujiang", melds=melds, wild=wild).to_dict()
    found = next(r for r in advice["discards"] if r["tile"] == row)
    assert wild not in [u["tile"] for u in found["ukeire"]], found
    kept = parse_tiles(hand)
    kept.remove(parse_tiles(row)[0])
    with pytest.raises(InputError) as refused:  # the scorer's word on holding it
        score_hand(format_tiles(kept) + wild, variant="pujiang", melds=melds, wild=wild, self_draw=True)
    assert refused.value.code == "too_many_wilds"


def test_the_limit_is_the_rulesets_own() -> None:
    # a house table with two wilds in play: a hand holding two may not draw a third, by advise as by score
    hand, flags = "111m222p333s45s3m3m9p", {"variant": "pujiang", "wild": "3m"}
    two = ["numbers.wild_copies=2"]
    for row in hand_advice(hand, **flags, overrides=two).to_dict()["discards"]:
        if row["tile"] != "3m":
            assert "3m" not in [u["tile"] for u in row["ukeire"]], row
    with pytest.raises(InputError) as refused:
        score_hand("111m222p333s45s3m3m3m", **flags, overrides=two, self_draw=True)
    assert refused.value.code == "too_many_wilds"
    shipped = {r["tile"]: r for r in hand_advice(hand, **flags).to_dict()["discards"]}
    assert "3m" in [u["tile"] for u in shipped["9p"]["ukeire"]]  # three in play: the third may come (三财神)


# --- hands no win can be reached from ---------------------------------------------------
# Chizhou line 75 "在2花以下，只能吃一色牌…你前面吃了一口万子，你就不能碰，吃别的花色": chows of two suits
# need 2 花; Wuhu §2 "和牌必须够八支": a suit of 8. With some melds no hand gets there.

UNREACHABLE = [
    # (variant, hand, melds, overrides, code)
    ("chizhou", "277m45s", ["234m", "789p", "789p"], [], "chow_restricted"),  # 1 concealed set: one honour pung, 1 花
    ("wuhu315", "77m", ["111m", "333p", "555s", "777z"], [], "no_ba_zhi"),  # 3 + 2 万 at most
    ("chizhou", "1z1z1z5m5m", ["123m", "789p", "456s"], ["numbers.chow_free_min_flowers=0"], "not_enough_flowers"),
]


@pytest.mark.parametrize(("variant", "hand", "melds", "overrides", "code"), UNREACHABLE)
def test_an_unreachable_hand_is_its_own_status(variant: str, hand: str, melds: list[str], overrides: list[str], code: str) -> None:
    advice = hand_advice(hand, variant=variant, melds=melds, overrides=overrides)
    data = advice.to_dict()
    assert data["shanten"] is None and data["unreachable"]["code"] == code
    for row in data["discards"]:
        assert row["shanten"] is None and row["ukeire"] == [] and row["ukeire_count"] == 0
        assert row["unreachable"] == data["unreachable"]
        kept = parse_tiles(hand)
        kept.remove(parse_tiles(row["tile"])[0])
        try:  # and indeed no tile wins the 13 tiles left
            waits = hand_waits(format_tiles(kept), variant=variant, melds=melds, overrides=overrides)
        except InputError:  # Chizhou's chow restriction refuses the 13 tiles as they are
            continue
        assert waits.waits == ()
    with pytest.raises((NotAWin, InputError)):
        score_hand(hand, variant=variant, melds=melds, overrides=overrides, self_draw=True)


def test_the_reason_says_the_rule_in_both_languages_and_the_table_shows_it() -> None:
    melds = ["--meld", "234m", "--meld", "789p", "--meld", "789p"]
    out = runner.invoke(app, ["advise", "277m45s", "--variant", "chizhou", *melds, "--json"])
    assert out.exit_code == 0, out.output  # a hand that cannot win is no error
    data = json.loads(out.stdout)
    assert data["shanten"] is None and "98" not in out.stdout
    assert data["unreachable"]["message"] == (
        "these melds chow one suit and call another, which only 2 花 allow, and no hand with them reaches 2 花 "
        "(advise does not count kongs declared later)")
    advice = hand_advice("277m45s", variant="chizhou", melds=["234m", "789p", "789p"])
    for lang, word, reason in [
        ("en", "unreachable", "which only 2 hua allow"),
        ("zh", "胡不了", "这些副露吃了一门又吃碰了别的花色, 要 2 花才行"),
    ]:
        buf = io.StringIO()
        with speaking(lang):
            print_advise(advice, lang, buf, width=200)
        text = buf.getvalue()
        assert f"{word}: [chow_restricted] " in text and reason in text, text
        assert "98" not in text
        assert text.count(word) == len(data["discards"]) + 1  # each row, and the reason once


def test_a_reachable_hand_has_no_unreachable_key() -> None:
    data: dict[str, Any] = hand_advice("2345678m139p777z5m").to_dict()
    assert "unreachable" not in data and all("unreachable" not in r for r in data["discards"])
