"""The table at 40 and 80 columns: nothing cut, one language when narrow, the totals shown."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.api.waits import hand_waits
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import MjcalcError
from mahjong_calc.present.render import print_table
from mahjong_calc.present.render_waits import print_waits

runner = CliRunner()

HANDS = [
    ("123456m13m99p555p2m", {"self_draw": True, "dealer_seat": "opposite"}),
    ("1112345678999m1m", {"win": "1m", "self_draw": True}),
    ("111m333m555m777m99m", {"variant": "chizhou", "self_draw": True}),
    ("123m456p789s11z", {"variant": "chizhou", "concealed_kongs": ["5555m"], "self_draw": True}),
    ("111m222p333s456m77z", {"variant": "pujiang", "self_draw": True, "opponent_pungs": "1,0,2"}),
    ("111m222p8p3m3m3m7z5z55s", {"variant": "pujiang", "wild": "3m", "win": "7z", "self_draw": True}),
]


def _render(result: object, lang: str, width: int, **kwargs: object) -> str:
    buf = io.StringIO()
    print_table(result, lang, file=buf, width=width, **kwargs)  # type: ignore[arg-type]
    return buf.getvalue()


def _score(hand: str, flags: dict) -> object:
    try:
        return score_hand(hand, **flags)
    except MjcalcError as exc:  # every hand here must win: a table needs a result
        pytest.fail(f"{hand}: {exc}")


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("hand", "flags"), HANDS)
def test_nothing_is_cut(hand: str, flags: dict, lang: str, width: int) -> None:
    result = _score(hand, flags)
    out = _render(result, lang, width)
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= width
    shown = Counter(re.split(r"[\s|]+", out))
    wanted = Counter(w for it in result.items for w in f"{it.zh if lang == 'zh' else it.en} {it.detail}".split())
    for word, times in wanted.items():  # every word of every name and detail is there whole, at most wrapped
        assert shown[word] >= times, (word, out)
    assert str(result.total) in out


def test_narrow_shows_one_language_and_wide_zh_a_gloss() -> None:
    result = score_hand("123456m13m99p555p2m", self_draw=True)
    narrow_zh = _render(result, "zh", 40)
    wide_zh = _render(result, "zh", 80)
    narrow_en = _render(result, "en", 40)
    wide_en = _render(result, "en", 80)
    assert "底番" in narrow_zh and "base" not in narrow_zh.split("说明")[1].split("合计")[0].replace("自摸 self-draw", "")
    assert "底番" in wide_zh and "base" in wide_zh  # Chinese with a short English gloss
    for out in (narrow_en, wide_en):  # --lang en: English names only
        assert "base" in out and "底番" not in out and "支番" not in out
        assert "next" in out and "下家" not in out


def test_winner_total_and_dealer_mark() -> None:
    result = score_hand("123456m13m99p555p2m", self_draw=True, dealer_seat="opposite")
    zh = _render(result, "zh", 80, dealer_seat="opposite")
    en = _render(result, "en", 40, dealer_seat="opposite")
    assert "赢家共收" in zh and str(result.total) in zh
    assert re.search(r"对家 opposite \(庄\)", zh)
    assert re.search(r"opposite \(dealer\)", en) and "Winner receives" in en


def test_rules_file_titles_the_table_with_its_own_name(tmp_path: object) -> None:
    from pathlib import Path

    rules = Path(str(tmp_path)) / "house.yaml"
    rules.write_text("extends: wuhu315\nname: my_house\n", encoding="utf-8")
    result = score_hand("123456m13m99p555p2m", rules=rules, self_draw=True)
    out = _render(result, "en", 80, rules_name=True)
    assert out.splitlines()[0].strip().startswith("my_house")
    assert "315" not in out.splitlines()[0]


def test_waits_from_the_result_appear_in_the_table() -> None:
    result = score_hand("123456789m1p555p1p", win="1p")
    assert result.to_dict()["waits"]
    out = _render(result, "zh", 40)
    assert "听牌" in out and " ".join(result.to_dict()["waits"]) in out


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    ("hand", "flags"),
    [("1112345678999m", {}), ("1112223334445m", {"variant": "pujiang"}), ("123456m13m99p555p", {"dealer": True})],
)
def test_waits_table_is_never_cut(hand: str, flags: dict, lang: str, width: int) -> None:
    result = hand_waits(hand, **flags)
    buf = io.StringIO()
    print_waits(result, lang, file=buf, width=width)
    out = buf.getvalue()
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= width
    for wait in result.waits:
        assert f"{wait.self_draw.value} ({wait.self_draw.total})" in out  # type: ignore[union-attr]


def test_cli_table_at_forty_columns() -> None:
    out = runner.invoke(app, ["score", "123456m13m99p555p2m", "-s", "--lang", "en"], env={"COLUMNS": "40"})
    assert out.exit_code == 0, out.output
    assert "…" not in out.output
    assert max(len(line) for line in out.output.splitlines()) <= 40
    assert "Winner receives" in out.output


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["123456m13m99p555p2m", "-s"], "(9 + 2) × 0.4 = 4.4 → 4"),  # Wuhu 支番 with 压档
        (["123456m13m99p555p2m"], "(9 + 2) × 0.2 = 2.2 → 2"),
        (["11122233345m555p", "-w", "5p", "--variant", "wuhu525"], "11 × 0.5 = 5.5 → 6"),
        (["111m333m555m777m99m", "-v", "chizhou", "-s"], "1 × 3 × 3 = 9, capped at 3"),
        (["111m222p333s444m77z", "-v", "pujiang", "-s"], "子 8 × 2^1 番 = 16"),
        (["111m222p333s444m77z", "-v", "pujiang", "-s", "--opponent-pungs", "1,0,2"],
         "下家 (8 − 1) × 2^1 = 14, 对家 8 × 2^1 = 16, 上家 (8 − 2) × 2^1 = 12"),
    ],
)
def test_the_numbers_add_up_on_screen(args: list[str], shown: str) -> None:
    out = runner.invoke(app, ["score", *args, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert any(it.get("detail", "").startswith(shown) or shown in it.get("detail", "") for it in data["items"])
    table = runner.invoke(app, ["score", *args], env={"COLUMNS": "200"})
    assert shown in table.output


@pytest.mark.parametrize(
    "hand", ["123456m13m99p555p2m", "11122233345m555p", "1112345678999m5m", "12345678m99p111s9m"]
)
@pytest.mark.parametrize("self_draw", [[], ["-s"]])
def test_wuhu_zhi_fan_detail_ends_with_its_value(hand: str, self_draw: list[str]) -> None:
    out = runner.invoke(app, ["score", hand, *self_draw, "--json"])
    assert out.exit_code == 0, out.output
    items = json.loads(out.stdout)["items"]
    for it in items:
        if it["key"] == "zhi_fan":
            exact = it["detail"].split(" = ")[1].split(" → ")
            assert int(exact[-1]) == it["value"]
            assert int(Decimal(exact[0]).quantize(Decimal(1), rounding=ROUND_HALF_UP)) == it["value"]  # 四舍五入


def test_cli_marks_the_dealer_and_titles_a_rules_file(tmp_path: Path) -> None:
    out = runner.invoke(app, ["score", "123456m13m99p555p2m", "-s", "--dealer-seat", "对家"], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    assert "对家 opposite (庄)" in out.output and "赢家共收" in out.output
    house = tmp_path / "house.yaml"
    house.write_text("extends: wuhu315\nname: our-club\n", encoding="utf-8")
    out = runner.invoke(app, ["score", "123456m13m99p555p2m", "--rules", str(house), "--lang", "en"], env={"COLUMNS": "40"})
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].startswith("our-club")


def test_explain_shows_every_reading_and_why() -> None:
    out = runner.invoke(app, ["score", "11122233344m55p5p", "-s", "--explain", "--lang", "en"], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    assert "Readings (3)" in out.output
    assert "111m 222m 333m" in out.output and "123m 123m 123m" in out.output
    assert "Chosen (*): the highest value: 11, the next best 7" in out.output
    data = json.loads(runner.invoke(app, ["score", "11122233344m55p5p", "-s", "--explain", "--json"]).stdout)
    readings = data["explain"]["readings"]
    assert len(readings) == 3 and [r["chosen"] for r in readings].count(True) == 1
    chosen = next(r for r in readings if r["chosen"])
    assert chosen["value"] == data["value"] == max(r["value"] for r in readings)
    assert chosen["patterns"] == data["patterns"]


def test_explain_shows_readings_that_break_a_rule() -> None:
    out = runner.invoke(app, ["score", "1112223334445m5m", "-v", "pujiang", "-s", "--explain", "--json"])
    assert out.exit_code == 0, out.output
    explained = json.loads(out.stdout)["explain"]
    refused = [r for r in explained["readings"] if r["refusal"] is not None]
    assert refused and all(r["refusal"]["code"] == "needs_three_pungs" and r["value"] is None for r in refused)
    assert explained["why"] == "the only reading that wins; the others break a rule"
    table = runner.invoke(app, ["score", "1112223334445m5m", "-v", "pujiang", "-s", "--explain"], env={"COLUMNS": "60"})
    assert "[needs_three_pungs]" in table.output


def test_json_without_explain_is_unchanged() -> None:
    plain = runner.invoke(app, ["score", "11122233344m55p5p", "-s", "--json"]).stdout
    assert "explain" not in json.loads(plain)
