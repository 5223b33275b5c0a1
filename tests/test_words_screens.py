"""Every screen of the command line in one language alone: with `--lang zh` no English word (no run of
three Latin letters outside the tiles the user typed, names in backticks and format names), with
`--lang en` no Chinese (outside the players' own names); over a table of hands that reaches every
item and every detail text of each variant's tables, `--explain` included, and waits, advise,
options, game settle and stats. Every error code's message, in both languages, the same way."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from catalogue import PACKAGE, _calls
from test_words import HAN, english_left
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.cli.app import app
from mahjong_calc.core import words
from mahjong_calc.core.errors import GENERAL, InputError, NotAWin
from mahjong_calc.core.flags import by_name
from mahjong_calc.core.words import Joined, Shown, Text
from mahjong_calc.present.errors import error_line
from mahjong_calc.rules.loader import load_ruleset

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# (hand, score_hand's keywords): together they reach every item key and pattern of each variant,
# and every detail text its build module writes (the tests below check that they do)
WUHU: list[tuple[str, dict[str, Any]]] = [
    ("111m444m777m99m555p", {"discarder": "next"}),
    ("111m444m777m99m555p", {"self_draw": True}),
    ("123456789m11p555p", {"discarder": "next"}),
    ("111123m456m789p55p", {"discarder": "next"}),
    ("123m345m678m99m777z", {"discarder": "next"}),
    ("123m345m678m999m11m", {"discarder": "next"}),
    ("111m333m555m777m99m", {"discarder": "next"}),
    ("111m333m123m456p55p", {"self_draw": True}),
    ("123m456m99m", {"melds": ["1111p", "9999p"], "discarder": "next"}),
    ("123m456m789p99m", {"melds": ["1111s"], "after_kong": True, "self_draw": True}),
    ("13m456m99m789p2m", {"melds": ["1111s"], "after_kong": True, "self_draw": True}),
    ("13m345m678m55m2m", {"melds": ["9999m"], "after_kong": True, "self_draw": True}),
    ("123m456m789m11p555p", {"heavenly": True, "self_draw": True, "dealer": True}),
    ("123m456m789m11p555p", {"earthly": True, "self_draw": True}),
    ("123m456m789p99m", {"concealed_kongs": ["1111s"], "self_draw": True, "dealer": True}),
    ("123456m13m99p555p2m", {"self_draw": True, "dealer_seat": "opposite", "variant": "wuhu525"}),
    ("13m456m678m11p555p2m", {"discarder": "next"}),
    ("111m444m777m99m555m", {"self_draw": True}),
    ("111m444m777m99m777z", {"discarder": "next"}),
    ("123m345m678m55s", {"melds": ["1111s"], "after_kong": True, "win": "5s", "overrides": ["options.gang_hou_du_diao_jiao=any_single_wait"]}),
    ("123m345m678m99m777z", {"self_draw": True, "overrides": ["options.hun_yi_se_self_draw_jiao=true"]}),
]
CHIZHOU: list[tuple[str, dict[str, Any]]] = [
    ("123m456p789s11z", {"concealed_kongs": ["5555m"], "self_draw": True}),
    ("111m222p333s444m55p", {"self_draw": True}),
    ("123m456m789m234m55m", {"discarder": "next"}),
    ("111m333m555m777m99m", {"self_draw": True}),
    ("123m456m789m111z55m", {"self_draw": True}),
    ("111z222z333z444z55z", {"self_draw": True}),
    ("55p", {"melds": ["1111z", "123m", "456m", "789m"], "self_draw": True}),
    ("55p", {"melds": ["1111z", "123m", "456m", "789m"], "self_draw": True, "overrides": ["options.da_diao_che_payment_multiplier=2"]}),
    ("55m", {"melds": ["1111z", "123m", "456m", "789m"], "self_draw": True}),
    ("123m456p789s11z", {"concealed_kongs": ["5555m"], "after_kong": True, "self_draw": True}),
    ("123m456p789s11z", {"concealed_kongs": ["5555m"], "robbing_kong": True, "discarder": "next"}),
    ("123m456p111z22z", {"melds": ["5555m"], "self_draw": True}),
    ("123m456p11z", {"melds": ["5555z"], "concealed_kongs": ["6666z"], "self_draw": True}),
    ("123m456p555z11z", {"melds": ["666z"], "self_draw": True}),
]
PUJIANG: list[tuple[str, dict[str, Any]]] = [
    ("111m222p333s456m77z", {"self_draw": True}),
    ("111m222p456s77z", {"melds": ["3333s"], "after_kong": True, "self_draw": True}),
    ("111m222p333s77z3m3m4m", {"wild": "3m", "self_draw": True}),
    ("111m222p333s444s3m7z", {"wild": "3m", "piao": 2, "self_draw": True}),
    ("11m22m33p44p55s66s7z7z", {"self_draw": True}),
    ("11m22m33p44p55s6s3m3m7z", {"wild": "3m", "self_draw": True}),
    ("14m25p369s1234567z", {"win": "1z", "self_draw": True}),
    ("147m258p369s12345z", {"self_draw": True}),
    ("159m159p159s12z3m3m3m", {"wild": "3m", "self_draw": True}),
    ("111p222p999s55z5z34m", {"wild": "3m", "win": "5z", "self_draw": True}),
    ("111m222p333s5z7z", {"wild": "5z", "melds": ["444p"], "self_draw": True}),
    ("111m222p8p3m3m3m7z5z55s", {"wild": "3m", "win": "7z", "self_draw": True}),
    ("111m222p456s77z7s8s9s", {"robbing_kong": True, "discarder": "opposite", "opponent_pungs": "1,2,0"}),
    ("111m222p333s444s3m7z", {"wild": "3m", "robbing_kong": True, "discarder": "previous", "robbed_fan": 3,
                              "overrides": ["options.qiang_gang_amount=robbed_fan"]}),
    ("111m222p333s444s3m7z", {"wild": "3m", "robbing_kong": True, "discarder": "next", "robbed_fan": 2,
                              "overrides": ["options.qiang_gang_amount=robbed_fan_doubling"]}),
    ("111m222p456s77z", {"melds": ["3333s"], "after_kong": True, "self_draw": True, "opponent_pungs": "2,0,1"}),
    ("111m222p456s77z", {"melds": ["3333s"], "after_kong": True, "self_draw": True, "opponent_pungs": "2,0,1",
                         "overrides": ["options.subtract_pungs=after_fan"]}),
]
HANDS = {"wuhu": WUHU, "chizhou": [(h, {"variant": "chizhou", **f}) for h, f in CHIZHOU],
         "pujiang": [(h, {"variant": "pujiang", **f}) for h, f in PUJIANG]}
RULESETS = {"wuhu": ("wuhu315", "wuhu525"), "chizhou": ("chizhou",), "pujiang": ("pujiang",)}
REFUSAL_WORDS = {" (unless 拉子)"}  # the build module's words for a refusal's message, not an item's


def cli_args(hand: str, flags: dict[str, Any]) -> list[str]:
    """`score`'s command line for score_hand's keywords (each flag as core/flags spells it)."""
    out = [hand]
    for name, value in flags.items():
        if name == "overrides":
            out += [a for o in value for a in ("--set", o)]
            continue
        flag = by_name()[name].cli[0]
        if value is True:
            out.append(flag)
        elif isinstance(value, list):
            out += [a for v in value for a in (flag, v)]
        else:
            out += [flag, str(value)]
    return out


def _msgids(detail: object, out: set[str]) -> set[str]:
    if isinstance(detail, Text):
        out.add(detail.msgid)
        for value in detail.params.values():
            _msgids(value, out)
    elif isinstance(detail, Joined):
        for part in detail.parts:
            _msgids(part, out)
    elif isinstance(detail, Shown):
        _msgids(detail.text, out)
    return out


def _explain_msgids(variant: str) -> set[str]:
    """The texts variants/<variant>/build.py (the only place its text is made) marks with N_."""
    tree = ast.parse((PACKAGE / "variants" / variant / "build.py").read_text(encoding="utf-8"))
    return {arg.value for call, arg in _calls(tree) if isinstance(call.func, ast.Name) and call.func.id == "N_"
            and isinstance(arg, ast.Constant) and isinstance(arg.value, str)}


@pytest.mark.parametrize("variant", sorted(HANDS))
def test_the_table_reaches_every_item_and_every_detail_text(variant: str) -> None:
    keys: set[str] = set()
    details: set[str] = set()
    for hand, flags in HANDS[variant]:
        result = score_hand(hand, **flags)
        for reading in result.readings:
            keys |= {i.key for i in reading.items} | set(reading.patterns)
            for one in reading.items:
                _msgids(one.detail, details)
    wanted = {key for name in RULESETS[variant] for rs in [load_ruleset(name)] for key in (*rs.patterns, *rs.labels)} - {"discard"}
    assert wanted - keys == set(), "add a hand that reaches these items"
    assert _explain_msgids(variant) - REFUSAL_WORDS - details == set(), "add a hand whose items say these"


def _user_text(args: list[str]) -> list[str]:
    """What the user typed: the hand and the flags' values (tiles), shown back as written."""
    return [a for a in args if not a.startswith("-")]


def chinese_left(text: str, allowed: list[str]) -> list[str]:
    for word in sorted(allowed, key=len, reverse=True):
        text = text.replace(word, "")
    return HAN.findall(text)


CODE = re.compile(r"\[[a-z][a-z0-9_]*\]")  # an error's code, the same in every language


def english_in(text: str, typed: list[str]) -> list[str]:
    """The English words of a Chinese screen, apart from what the user typed and the codes."""
    for word in sorted(typed, key=len, reverse=True):
        text = text.replace(word, " ")
    return english_left(CODE.sub(" ", text))


SCREENS = [(variant, hand, flags) for variant, rows in HANDS.items() for hand, flags in rows]


@pytest.mark.parametrize(("variant", "hand", "flags"), SCREENS, ids=[f"{v}-{h}-{i}" for i, (v, h, _) in enumerate(SCREENS)])
@pytest.mark.parametrize("width", ["100", "40"])
def test_score_and_explain_in_one_language(runner: CliRunner, variant: str, hand: str, flags: dict[str, Any], width: str) -> None:
    args = ["score", *cli_args(hand, flags), "--explain"]
    zh = runner.invoke(app, [*args, "--lang", "zh"], env={"COLUMNS": width})
    assert zh.exit_code == 0, zh.output
    assert english_in(zh.stdout, _user_text(args)) == [], zh.stdout
    en = runner.invoke(app, [*args, "--lang", "en"], env={"COLUMNS": width})
    assert en.exit_code == 0, en.output
    assert chinese_left(en.stdout, []) == [], en.stdout


def test_no_language_keeps_the_bilingual_table(runner: CliRunner) -> None:
    """With no language chosen the table is as it always was: the English beside the Chinese,
    and the detail texts as the JSON has them."""
    args = ["score", "13m456m678m11p555p2m", "--discarder", "下家", "--explain"]
    plain = runner.invoke(app, args, env={"COLUMNS": "100", "MJCALC_LANG": "", "LC_ALL": "", "LANG": "C.UTF-8"})
    assert plain.exit_code == 0
    for text in ("English", "点炮 discard, 压档 2", "下家 next", "赢家共收 winner receives", "(win in 123m)",
                 "选中 (*): the only way to read the hand"):
        assert text in plain.stdout, text
    zh = runner.invoke(app, [*args, "--lang", "zh"], env={"COLUMNS": "100"})
    for text in ("点炮, 压档 2", "(和在 一二三万)", "选中 (*): 只有这一种拆法", "拆分  一一筒 一二三万 四五六万"):
        assert text in zh.stdout, text
    en = runner.invoke(app, [*args, "--lang", "en"], env={"COLUMNS": "100"})
    assert "discard, ya dang 2" in en.stdout and "点炮" not in en.stdout


@pytest.mark.parametrize(("variant", "hand", "flags"), SCREENS[:4] + [s for s in SCREENS if s[0] != "wuhu"][::3])
def test_the_json_keeps_its_codes_and_keys_and_speaks_the_language(runner: CliRunner, variant: str, hand: str, flags: dict[str, Any]) -> None:
    args = ["score", *cli_args(hand, flags), "--explain", "--json"]
    plain, zh, en = (json.loads(runner.invoke(app, [*args, *lang]).stdout) for lang in ([], ["--lang", "zh"], ["--lang", "en"]))

    def shape(data: Any) -> Any:
        if isinstance(data, dict):
            return {k: shape(v) for k, v in data.items() if k not in ("detail", "reading", "why", "message")}
        if isinstance(data, list):
            return [shape(v) for v in data]
        return data

    assert shape(plain) == shape(zh) == shape(en)
    assert plain == score_hand_json(hand, flags)
    assert not any(english_in(i.get("detail", ""), []) for i in zh["items"]), zh["items"]
    assert not any(HAN.search(i.get("detail", "")) for i in en["items"]), en["items"]


def score_hand_json(hand: str, flags: dict[str, Any]) -> Any:
    from mahjong_calc.present.render import to_json

    words.set_language(None)  # as with no language chosen
    return json.loads(to_json(score_hand(hand, **flags), explain=True))


WAITS = [["waits", "123456m13m99p555p"], ["waits", "13m456m678m11p555p"], ["waits", "123m456m789m234m5m", "--variant", "chizhou"],
         ["waits", "111m222p333s456m7z", "--variant", "pujiang"], ["waits", "111m222p333s44s3m7z", "--variant", "pujiang", "--wild", "3m"]]
ADVISE = [["advise", "1234567m234p56p99s"], ["advise", "2345678m139p777z5m"], ["advise", "123m456p789s11z23m5z", "--variant", "chizhou"],
          ["advise", "111m222p333s45m7z7z9p", "--variant", "pujiang"]]

LIABLE = [["score", "456m99m", "-m", "111m@next", "-m", "222m@next", "-m", "333m@next", "-f", "previous"],  # 三对包牌
          ["score", "123m456m789m11p", "-m", "5555p@opposite", "--after-kong", "--self-draw"]]


@pytest.mark.parametrize("args", WAITS + ADVISE + LIABLE, ids=[" ".join(a) for a in WAITS + ADVISE + LIABLE])
@pytest.mark.parametrize("width", ["100", "40"])
def test_waits_advise_and_options_in_one_language(runner: CliRunner, args: list[str], width: str) -> None:
    zh = runner.invoke(app, [*args, "--lang", "zh"], env={"COLUMNS": width})
    assert zh.exit_code == 0, zh.output
    assert english_in(zh.stdout, _user_text(args)) == [], zh.stdout
    en = runner.invoke(app, [*args, "--lang", "en"], env={"COLUMNS": width})
    assert en.exit_code == 0, en.output
    assert chinese_left(en.stdout, []) == [], en.stdout


def _literals(cls: Any) -> set[str]:
    """Every value a `Literal[...]` field of a schema dataclass (and the ones nested in it) takes."""
    import dataclasses
    import typing

    out: set[str] = set()
    if cls is None or not dataclasses.is_dataclass(cls):
        return out
    for hint in typing.get_type_hints(cls, include_extras=True).values():
        for part in (hint, *typing.get_args(hint)):
            if typing.get_origin(part) is typing.Literal:
                out |= {str(v) for v in typing.get_args(part)}
            elif isinstance(part, type) and dataclasses.is_dataclass(part):
                out |= _literals(part)
    return out


@pytest.mark.parametrize("name", ["wuhu315", "wuhu525", "chizhou", "pujiang"])
def test_options_in_one_language(runner: CliRunner, name: str) -> None:
    """The keys, their values and the values they may take are what `--set` is given (as flags are);
    the rest of a Chinese table is Chinese. In English, only the meanings the schema words with
    Chinese rule terms (its `Doc`s, which the page shows too) and the Chinese names carry Chinese."""
    from mahjong_calc.present.option_docs import describe

    rs = load_ruleset(name)
    rows = describe(rs.data, rs.scorer)
    typed = {part for row in rows for part in (*row.key.split("."), row.key, row.shown, *row.shown.split())}
    typed |= _literals(rs.variant.numbers) | _literals(rs.variant.options) | _literals(rs.variant.settlement)
    zh = runner.invoke(app, ["options", name, "--lang", "zh"], env={"COLUMNS": "100"})
    assert zh.exit_code == 0, zh.output
    assert english_in(zh.stdout, sorted(typed)) == [], zh.stdout
    en = runner.invoke(app, ["options", name, "--lang", "en"], env={"COLUMNS": "400"})
    headings = [row.section.split(" § ", 1)[-1] for row in rows if row.section]  # the docs page's own headings
    assert chinese_left(en.stdout, [row.en for row in rows] + [row.shown for row in rows] + headings) == [], en.stdout


def test_advise_shows_the_copies_left_of_each_useful_tile(runner: CliRunner) -> None:
    out = runner.invoke(app, ["advise", "1234567m234p56p99s", "--lang", "en"], env={"COLUMNS": "120"})
    row = next(line for line in out.stdout.splitlines() if line.startswith("| 2p "))
    assert "1234567m×3 89m×4 9s×2" in row, row
    zh = runner.invoke(app, ["advise", "1234567m234p56p99s", "--lang", "zh"], env={"COLUMNS": "120"})
    assert "一二三四五六七万×3 八九万×4 九条×2" in zh.stdout, zh.stdout


GAMES = sorted(p.name for p in EXAMPLES.glob("*.yaml")) + ["club-season.csv"]


def _players(path: Path) -> list[str]:
    """The names the file gives: its players, and the name of a ruleset file of its own (`rules:`)."""
    from mahjong_calc.game.log import open_games
    from mahjong_calc.rules.loader import shipped_names

    names: list[str] = []
    for game in open_games(str(path)):
        names += [p for p in game.players if p not in names]
        if game.ruleset.name not in shipped_names():
            names.append(game.ruleset.name)
    return names


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("command", ["game settle", "stats"])
def test_game_tables_and_stats_in_one_language(runner: CliRunner, name: str, command: str) -> None:
    path = EXAMPLES / name
    players = _players(path)
    args = [*command.split(), str(path)]
    zh = runner.invoke(app, [*args, "--lang", "zh"], env={"COLUMNS": "120"})
    assert zh.exit_code in (0, 1), zh.output
    assert english_in(zh.stdout, [*players, str(path), name, path.stem]) == [], zh.stdout  # file names
    en = runner.invoke(app, [*args, "--lang", "en"], env={"COLUMNS": "120"})
    assert chinese_left(en.stdout, players) == [], en.stdout


def test_each_variant_has_its_own_word_for_the_discarder(runner: CliRunner, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    for variant, hand, word, other in (("wuhu315", "123456m13m99p555p2m", "A 点炮", "放冲"), ("chizhou", "111m333m555m777m99m", "A 放冲", "点炮")):
        assert runner.invoke(app, ["game", "new", "--variant", variant, "--players", "A,B,C,D", "--db", db]).exit_code == 0
        added = runner.invoke(app, ["game", "add", "--winner", "B", "--discarder", "A", hand, "--db", db, "--lang", "zh"])
        assert added.exit_code == 0, added.output
        assert word in added.stdout and other not in added.stdout, added.stdout
        history = runner.invoke(app, ["game", "history", "--db", db, "--lang", "zh"])
        assert word in history.stdout, history.stdout
    listed = runner.invoke(app, ["game", "list", "--db", db, "--lang", "zh"])
    assert "池州麻将" in listed.stdout and "芜湖麻将 315" in listed.stdout and "chizhou" not in listed.stdout, listed.stdout
    chizhou = runner.invoke(app, ["game", "settle", str(EXAMPLES / "chizhou-cheng-bao.yaml")], env={"COLUMNS": "120"})
    assert "放冲 " in chizhou.stdout and "点炮" not in chizhou.stdout, chizhou.stdout


# --- every error code's message ---------------------------------------------------------


def _codes() -> list[str]:
    from test_error_codes import codes_in_code

    literal, _ = codes_in_code()
    return sorted(set(GENERAL) | (literal & set(GENERAL)))


@pytest.mark.parametrize("code", _codes())
def test_every_error_code_in_one_language(code: str) -> None:
    """Each code's message as the CLI's one error line shows it: Chinese alone, English alone,
    and the code itself unchanged."""
    for cls in (InputError, NotAWin):
        err = cls(code, GENERAL[code])
        try:
            words.set_language("zh")
            zh = error_line(err)
            words.set_language("en")
            en = error_line(err)
        finally:
            words.set_language(None)
        assert f"[{code}]" in zh and f"[{code}]" in en
        assert english_in(zh.replace(f"[{code}]", ""), []) == [], zh
        assert HAN.search(zh) and not HAN.search(en), (zh, en)
        assert error_line(err) == f"mjcalc: {'not a win' if cls is NotAWin else 'error'} [{code}]: {GENERAL[code]}"


def test_every_code_any_command_emits_has_a_general_message() -> None:
    from test_error_codes import codes_in_code

    literal, _ = codes_in_code()
    documented = set(re.findall(r"`([a-z][a-z0-9_]*)`", (PACKAGE.parent / "docs" / "errors.md").read_text(encoding="utf-8")))
    assert (literal & documented) - set(GENERAL) == set()


def test_variants_by_their_names_in_the_language_chosen(runner: CliRunner) -> None:
    plain = runner.invoke(app, ["variants"], env={"MJCALC_LANG": "", "LC_ALL": "", "LANG": "C.UTF-8"}).stdout
    assert "芜湖麻将 315  (Wuhu mahjong, 315 scoring)" in plain
    zh = runner.invoke(app, ["variants", "--lang", "zh"]).stdout
    codes = [line.split()[0] for line in zh.splitlines()]  # what --variant takes
    assert "芜湖麻将 315" in zh and english_in(zh, codes) == [], zh
    en = runner.invoke(app, ["variants", "--lang", "en"]).stdout
    assert "Chizhou mahjong" in en and not HAN.search(en), en
