"""The catalogue of words (core/words.py, locale/*/LC_MESSAGES/mjcalc.po): complete, Chinese alone
in Chinese, English alone in English, the default unchanged, and the language chosen by --lang,
then MJCALC_LANG, then the locale."""

from __future__ import annotations

import gettext
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from catalogue import msgids, unconverted
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core import words
from mahjong_calc.core.errors import GENERAL, InputError, NotAWin
from mahjong_calc.core.words import language_from_env

HAN = re.compile(r"[\u4e00-\u9fff]")
TICKED = re.compile(r"`[^`]*`")
TILES = re.compile(r"[0-9]+[mpsz]\b")
LATIN_RUN = re.compile(r"[A-Za-z]{3,}")
# format and program names that have no Chinese name: a Chinese screen writes them so too
NAMES = re.compile(r"(?<![A-Za-z])(JSON|YAML|CSV|UTF|Unicode|SQLite|ISO|CPU|MiB|NUL|Lines|mjcalc)(?![A-Za-z])")


def english_left(text: str) -> list[str]:
    """The runs of 3+ Latin letters of a Chinese text outside backticks, tile notation and format names."""
    return LATIN_RUN.findall(NAMES.sub("", TILES.sub("", TICKED.sub("", text))))


def dynamic_msgids() -> set[str]:
    """Texts the source passes to N_ through a name (the flag table's hints, a table of kinds)."""
    from mahjong_calc.cli.serve import INSTALL_HINT
    from mahjong_calc.core import flags
    from mahjong_calc.core.hand import SEAT_CHOICES, WAITS_HINT
    from mahjong_calc.game.fields import _KIND_TEXT
    from mahjong_calc.variants.chizhou.build import WIN_KINDS

    notes = {f.game_note for f in flags.fields() if f.game == "computed" and f.game_note}
    hints = {f.needs_hint for f in flags.fields() if f.needs_hint}
    return {WAITS_HINT, SEAT_CHOICES, INSTALL_HINT, *WIN_KINDS, *hints, *notes, *_KIND_TEXT.values(), "pung", "kong", "chow", "a ruleset", "a game file",
            *help_texts()}


def help_texts() -> set[str]:
    """Every text `--help` shows, looked up in the catalogue (cli/help.py)."""
    import typer

    from mahjong_calc.cli.help import help_msgids

    return help_msgids(typer.main.get_command(app))


HELP = help_texts()
# what a help text may hold in Latin letters on a Chinese screen: its examples (`\b` blocks, `示例:`),
# the options, metavars, variables, paths and file names it names, and the values an option takes
HELP_CODE = re.compile(r"\x08\n.*?(?=\n\n|$)|示例: .*|--?[a-z][\w-]*|\b[A-Z][A-Z_.]+\b|\$\w+|\S*[/.@=]\S*|'[^']*'|"
                       r"\b(?:table|json|jsonl|csv|yaml|summary|error|keep|extra|unknown_field|pyodide|npm|shell|seq|kind|at|no|hand|"
                       r"wuhu315|zh|en|locale|liability|web|service worker|manifest|id|variant|win|self_draw|melds|date|Pyodide|Python|"
                       r"API|None|stderr|previous|batch|stats|score|waits|advise|options|variants|game|serve|site|settle|redo|undo)\b", re.S)


def all_msgids() -> set[str]:
    return set(msgids()) | dynamic_msgids() | set(GENERAL.values())


# the catalogues as written in the source tree (an installed wheel holds only the compiled .mo)
SOURCE_LOCALE = Path(__file__).resolve().parent.parent / "mahjong_calc" / "locale"


def catalog(lang: str) -> dict[str, str]:
    return words._read_po(SOURCE_LOCALE / lang / "LC_MESSAGES" / "mjcalc.po")


FIELD = re.compile(r"(?<!\{)\{(\w+)(![rsa])?(:[^{}\s][^{}]*)?\}")


def fields(text: str) -> set[str]:
    """The named parameters of a msgid (`{player: count}` and `{winner, ...}` are literal text)."""
    return {m.group(1) for m in FIELD.finditer(text)}


def sample(text: str, msgid: str, filler: str = "一") -> str:
    """`text` formatted as its msgid would be: a Chinese word for each parameter (1 where a format
    such as `{n:,}` or `{b:#04x}` wants a number); a msgid without parameters is not formatted."""
    names = {m.group(1): m.group(3) for m in FIELD.finditer(msgid)}
    return text.format(**{k: 1 if spec else filler for k, spec in names.items()}) if names else text


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The real entry point (`mjcalc ARGS`): exit status, stdout, stderr."""
    from mahjong_calc.cli.app import main

    with pytest.raises(SystemExit) as stopped:
        main(args)
    out, err = capsys.readouterr()
    code = stopped.value.code
    return code if isinstance(code, int) else 0, out, err


@pytest.fixture(autouse=True)
def no_language_chosen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "games.sqlite3"))  # never the user's own games
    for var in ("MJCALC_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    words.set_language(None)


def test_no_error_message_is_a_finished_sentence() -> None:
    assert unconverted() == [], "an error's message is an f-string: write it as a msgid with named parameters"


def test_every_msgid_has_chinese_with_the_same_parameters() -> None:
    zh = catalog("zh")
    missing = sorted(all_msgids() - zh.keys())
    assert not missing, f"add to locale/zh/LC_MESSAGES/mjcalc.po: {missing}"
    stale = sorted(zh.keys() - all_msgids())
    assert not stale, f"the Chinese catalogue has texts nothing uses: {stale}"
    for msgid, text in zh.items():
        assert fields(text) == fields(msgid), (msgid, text)
        assert HAN.search(text) or not LATIN_RUN.search(msgid) or msgid.startswith("{"), (msgid, text)


@pytest.mark.parametrize("msgid", sorted(all_msgids()))
def test_chinese_texts_have_no_english_words(msgid: str) -> None:
    text = sample(words.translated(msgid, "zh") or msgid, msgid)
    if msgid in HELP:
        text = HELP_CODE.sub("", TICKED.sub("", text))
    assert not english_left(text), (msgid, text)



@pytest.mark.parametrize("msgid", sorted(all_msgids() - HELP))
def test_english_texts_have_no_chinese(msgid: str) -> None:
    """(The English `--help` is written as it is: its rule terms with their English beside them, and
    its examples' players, 王 and 李.)"""
    text = sample(words.translated(msgid, "en") or msgid, msgid, "x")
    assert not HAN.search(text), (msgid, text)


def test_the_en_catalogue_only_takes_chinese_out() -> None:
    en = catalog("en")
    assert en and all(HAN.search(msgid) for msgid in en), "the English catalogue holds only msgids with Chinese terms"
    for msgid, text in en.items():
        assert fields(text) == fields(msgid), (msgid, text)
    assert not (en.keys() - all_msgids())


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_msgid_has_one_entry(lang: str) -> None:
    """Two entries of one msgid would give one of them silently (the page's and the CLI's words share the file)."""
    text = (SOURCE_LOCALE / lang / "LC_MESSAGES" / "mjcalc.po").read_text(encoding="utf-8")
    ids = re.findall(r'^msgid ((?:".*"\n)+)', text, re.M)
    twice = sorted({i for i in ids if ids.count(i) > 1})
    assert not twice, twice
    babel = pytest.importorskip("babel.messages.pofile", reason="Babel (a build requirement) reads the .po as the build does")
    with (SOURCE_LOCALE / lang / "LC_MESSAGES" / "mjcalc.po").open("rb") as f:
        assert len(babel.read_po(f)) == len(catalog(lang))


def test_the_compiled_catalogue_is_what_the_po_reader_reads(tmp_path: Path) -> None:
    """setup.py compiles each .po with Babel; gettext's reading of that .mo is the source tree's reading of the .po."""
    babel = pytest.importorskip("babel.messages.pofile", reason="Babel (a build requirement) compiles the .mo")
    from babel.messages.mofile import write_mo

    for lang in ("zh", "en"):
        po = SOURCE_LOCALE / lang / "LC_MESSAGES" / "mjcalc.po"
        with po.open("rb") as src:
            parsed = babel.read_po(src)
        mo = tmp_path / f"{lang}.mo"
        with mo.open("wb") as out:
            write_mo(out, parsed)
        with mo.open("rb") as fp:
            compiled = gettext.GNUTranslations(fp)
        from_mo = {k: v for k, v in compiled._catalog.items() if k}  # type: ignore[attr-defined]
        assert from_mo == words._read_po(po)


def test_the_wheel_build_step_compiles_every_po(tmp_path: Path) -> None:
    """setup.py's compile_catalogues (run by build_py) writes a .mo beside each .po under build/lib."""
    pytest.importorskip("babel", reason="Babel (a build requirement) compiles the .mo")
    import ast

    setup_py = SOURCE_LOCALE.parent.parent / "setup.py"
    source = setup_py.read_text(encoding="utf-8")
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == "compile_catalogues")
    namespace: dict[str, object] = {"HERE": setup_py.parent, "Path": Path}
    exec(compile(ast.Module(body=[node], type_ignores=[]), str(setup_py), "exec"), namespace)
    namespace["compile_catalogues"](tmp_path)  # type: ignore[operator]
    built = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.mo"))
    assert built == ["mahjong_calc/locale/en/LC_MESSAGES/mjcalc.mo", "mahjong_calc/locale/zh/LC_MESSAGES/mjcalc.mo"]
    with (tmp_path / built[1]).open("rb") as fp:
        assert gettext.GNUTranslations(fp).gettext("no such tile") == "没有这张牌"


@pytest.mark.parametrize(("env", "lang"), [
    ({}, None),
    ({"LANG": "C.UTF-8"}, None),
    ({"LANG": "en_US.UTF-8"}, None),  # a non-Chinese locale keeps today's output
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "zh_TW"}, "zh"),
    ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "C"}, "zh"),
    ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, None),  # LC_ALL decides first, as in gettext
    ({"LC_ALL": "zh_CN.UTF-8", "LANG": "C"}, "zh"),
    ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN"}, "zh"),  # an empty variable is not set
    ({"MJCALC_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"),
    ({"MJCALC_LANG": "zh", "LANG": "C"}, "zh"),
    ({"MJCALC_LANG": "zh_CN.UTF-8"}, "zh"),
    ({"MJCALC_LANG": "fr", "LANG": "zh_CN.UTF-8"}, "zh"),  # neither language: ignored
])
def test_the_language_from_the_environment(env: dict[str, str], lang: str | None) -> None:
    assert language_from_env(env) == lang


BAD = [  # (args, code, exit status); no player names or tiles in Chinese, so English stays free of CJK
    (["score", "12x"], "unknown_character", 2),
    (["score", "123m"], "wrong_tile_count", 2),
    (["score", "0m"], "invalid_tile", 2),
    (["score", "13M"], "unknown_character", 2),
    (["score", "1111m1111m123456p"], "too_many_copies", 2),
    (["score", "123456m13m99p555p2m", "--win", "7p"], "win_tile_not_in_hand", 2),
    (["score", "123456m13m99p555p2m", "--discarder", "nxt"], "bad_seat", 2),
    (["score", "123456m13m99p555p2m", "--variant", "nope"], "unknown_variant", 2),
    (["score", "123456789m123p11z"], "tile_not_in_variant", 2),
    (["score", "123456m13m99p555p2m", "--variant", "chizhou"], "missing_discarder", 2),
    (["score", "123456m13m99p555p2m", "--set", "numbers.min_zhi=abc"], "ruleset_invalid", 2),
    (["score", "123456m13m99p555p2m", "--set", "nokey"], "bad_set_option", 2),
    (["score", "123456m13m99p555p2m", "--rules", "/no/such/rules.yaml"], "ruleset_not_found", 2),
    (["score", "123456m1399p555p2m", "--meld", "123z"], "bad_meld", 2),
    (["score", "123m456p789s11s77m2s"], "no_ba_zhi", 1),
    (["score", "123456m13m99p555p2m", "--self-draw", "--discarder", "next"], "conflicting_flags", 2),
    (["score"], "usage_error", 2),
    (["score", "123456m13m99p555p2m", "--selfdraw"], "usage_error", 2),
    (["scor"], "usage_error", 2),
    (["waits", "123456m13m99p555p2m"], "wrong_tile_count", 2),
    (["waits", "123m456p789s11s77m"], "no_ba_zhi", 1),
    (["advise", "123456m13m99p5552p2m"], "wrong_tile_count", 2),
    (["game", "settle", "/no/such/game.yaml"], "game_not_found", 2),
    (["game", "show", "x"], "unknown_game", 2),
    (["stats", "--json", "--csv"], "conflicting_flags", 2),
]


def error_part(stderr: str, code: str) -> str:
    """The message of the one error line, without the user's own text echoed after `column N:`."""
    line = next(ln for ln in stderr.splitlines() if f"[{code}]" in ln)
    message = line.split(f"[{code}]: ", 1)[1]
    return re.split(r" (?:at column|在第) \d+ ?列?: ", message)[0]


@pytest.mark.parametrize(("args", "code", "status"), BAD, ids=[" ".join(b[0]) for b in BAD])
def test_bad_input_in_each_language(capsys: pytest.CaptureFixture[str], args: list[str], code: str, status: int) -> None:
    runs = [run_main([*args, "--json", *lang], capsys) for lang in ([], ["--lang", "zh"], ["--lang", "en"])]
    assert [r[0] for r in runs] == [status] * 3, runs
    bodies = [json.loads(r[1].splitlines()[-1]) for r in runs]
    (_, _, plain_err), (_, _, zh_err), (_, _, en_err) = runs
    kind = "reason" if status == 1 else "error"
    assert {b[kind]["code"] for b in bodies} == {code}
    assert [sorted(b[kind]) for b in bodies] == [sorted(bodies[0][kind])] * 3  # the same keys in every language
    chinese = error_part(zh_err, code)
    assert HAN.search(chinese) and not english_left(chinese), chinese
    assert not english_left(bodies[1][kind]["message"]), bodies[1]
    english = error_part(en_err, code)
    assert not HAN.search(en_err) and not HAN.search(bodies[2][kind]["message"]), en_err
    assert english.isascii() and english.strip()
    assert "[" + code + "]" in plain_err and plain_err.startswith("mjcalc: ")


def test_the_environment_chooses_the_language_and_lang_wins(runner: CliRunner) -> None:
    args = ["score", "12x"]
    assert "牌里有无法识别的字符" in runner.invoke(app, args, env={"MJCALC_LANG": "zh"}).stderr
    assert "牌里有无法识别的字符" in runner.invoke(app, args, env={"MJCALC_LANG": "", "LC_ALL": "", "LANG": "zh_CN.UTF-8"}).stderr
    assert "unknown character" in runner.invoke(app, [*args, "--lang", "en"], env={"MJCALC_LANG": "zh"}).stderr
    assert "unknown character" in runner.invoke(app, args, env={"MJCALC_LANG": "", "LC_ALL": "C", "LANG": "zh_CN.UTF-8"}).stderr
    plain = runner.invoke(app, args, env={"MJCALC_LANG": "", "LC_ALL": "", "LANG": "C.UTF-8"})
    assert plain.stderr == "mjcalc: error [unknown_character]: unknown character 'x' in tiles at column 3: 12[x]\n"


def test_every_command_takes_lang(runner: CliRunner) -> None:
    from mahjong_calc.cli.app import COMMANDS
    from mahjong_calc.cli.game import GAME_COMMANDS

    commands = [[name] for name in COMMANDS if name != "game"] + [["game", name] for name in GAME_COMMANDS]
    for words_ in commands:
        done = runner.invoke(app, [*words_, "--help"])
        assert "--lang" in done.stdout, words_


def test_errors_render_when_read_in_the_language_then_chosen() -> None:
    err = InputError("bad_seat", "{flag} must be one of {choices}, not {value}", flag="--discarder", choices="next", value="'x'")
    assert err.params == {"flag": "--discarder", "choices": "next", "value": "'x'"} and err.code == "bad_seat"
    try:
        words.set_language("zh")
        assert err.message == "`--discarder` 只能是 next 之一, 不是 `'x'`"
        words.set_language("en")
        assert err.message == "--discarder must be one of next, not 'x'"
    finally:
        words.set_language(None)
    assert str(err) == err.to_dict()["message"] == "--discarder must be one of next, not 'x'"


def test_the_old_call_form_still_works() -> None:
    """Other branches still raise `InputError(code, finished_english)`: shown as before, the general Chinese first."""
    err = NotAWin("not_a_winning_hand", "some {braces} stay as written")
    try:
        words.set_language("zh")
        assert err.message == "这手牌不能和: some {braces} stay as written"
    finally:
        words.set_language(None)
    assert err.message == "some {braces} stay as written"


def test_a_winner_and_a_file_name_go_in_front_in_every_language() -> None:
    err = NotAWin("no_ba_zhi", "not 八支: the longest suit has {zhi} tiles (支); a win needs {need}", zhi=6, need=8).about_winner("Li")
    assert err.message == "Li: not 八支: the longest suit has 6 tiles (支); a win needs 8" and err.winner == "Li"
    assert err.render("zh") == "Li: 不够八支: 最长的一门只有 6 支; 和牌要 8 支"
    assert err.render("en") == "Li: not ba zhi: the longest suit has 6 tiles (zhi); a win needs 8"


# --- the walls of the command line ----------------------------------------------------


def test_score_without_a_hand_points_to_its_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(["score"], capsys)
    assert status == 2 and "(see mjcalc score --help)" in err and "(see mjcalc --help)" not in err, err
    assert "`mjcalc score --help`" in run_main(["score", "--lang", "zh"], capsys)[2]


@pytest.mark.parametrize("command", [["score", "123456m13m99p555p2m"], ["game", "add"]])
def test_a_misspelt_option_suggests_the_closest_first(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    status, _, err = run_main([*command, "--selfdraw"], capsys)
    suggested = re.search(r"Possible options: ([^)]*)\)", err)
    assert status == 2 and suggested, err
    assert suggested.group(1).split(", ")[0] == "--self-draw", err


def test_waits_says_that_no_tile_completes_the_hand(runner: CliRunner) -> None:
    # a hand that waits on nothing is not a refused win: its own words, the rule's code and reason after them
    done = runner.invoke(app, ["waits", "123m456p789s11s77m"])
    assert done.exit_code == 1
    assert done.stderr == "mjcalc: no waits [no_ba_zhi]: 7m 1s complete the shape but do not win: not 八支: the longest suit has 6 tiles (支); a win needs 8\n"
    zh = runner.invoke(app, ["waits", "123m456p789s11s77m", "--lang", "zh"])
    assert zh.stderr.startswith("mjcalc: 没听牌 [no_ba_zhi]: 七万 一条 能凑成牌型, 但不能和: 不够八支"), zh.stderr
    en = runner.invoke(app, ["waits", "1234567m99p555p3s", "--lang", "en"])
    assert en.exit_code == 1 and en.stderr.startswith("mjcalc: no waits [no_waits]: no tile completes these 13 tiles"), en.stderr
    assert "not a win" not in done.stderr + en.stderr


def test_game_add_without_a_discarder_names_the_flags(runner: CliRunner, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert runner.invoke(app, ["game", "new", "--players", "A,B,C,D", "--db", db]).exit_code == 0
    done = runner.invoke(app, ["game", "add", "--winner", "C", "123456789m11p555s", "--db", db])
    assert done.exit_code == 2 and "[missing_discarder]" in done.stderr
    assert "--discarder" in done.stderr and "--self-draw" in done.stderr, done.stderr
    assert "self_draw: true" not in done.stderr and " discarder," not in done.stderr
    zh = runner.invoke(app, ["game", "add", "--winner", "C", "123456789m11p555s", "--db", db, "-l", "zh"])
    assert "`--discarder`" in zh.stderr and "`--self-draw`" in zh.stderr, zh.stderr


def test_readme_session_one_self_draw_further_says_what_to_do(runner: CliRunner, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    self_draw = "game add --winner 张 --self-draw --meld 555s@李 123456789m11p"
    lines = ["game new --variant wuhu315 --players 王,李,张,赵 --dealer 王",  # README's session
             "game add --winner 李 --discarder 王 123456m13m99p555p2m", self_draw, "game add --draw"]
    for line in lines:
        assert runner.invoke(app, [*line.split(), "--db", db]).exit_code == 0, line
    for _ in range(6):  # self-draws until a player's 子 run out
        done = runner.invoke(app, [*self_draw.split(), "--db", db])
        if done.exit_code:
            break
    assert done.exit_code == 2 and "[game_over]" in done.stderr, done.stderr
    assert "mjcalc game new" in done.stderr and "mjcalc game undo" in done.stderr, done.stderr
    zh = runner.invoke(app, [*self_draw.split(), "--db", db, "--lang", "zh"])
    assert "`mjcalc game new`" in zh.stderr and not english_left(error_part(zh.stderr, "game_over")), zh.stderr


def test_the_installed_package_reads_its_catalogue_and_says_which() -> None:
    """The installed mjcalc (tests/installed.py): a wheel reads the compiled .mo with gettext, an
    editable install (nothing compiled) the .po; the Chinese is the same either way."""
    from installed import _WORKDIR, child_env, run_installed

    code = ("import json; from mahjong_calc.core import words; t = words.translations('zh'); "
            "print(json.dumps({'reader': type(t).__name__, 'mo': (words.LOCALE_DIR / 'zh/LC_MESSAGES/mjcalc.mo').is_file(), "
            "'text': words.translated('no such tile', 'zh')}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=_WORKDIR, env=child_env(), capture_output=True, text=True, check=True)
    info = json.loads(done.stdout)
    assert info["reader"] == ("GNUTranslations" if info["mo"] else "_PoTranslations"), info
    assert info["text"] == "没有这张牌"
    shown = run_installed(["score", "12x", "--lang", "zh"])
    assert shown.returncode == 2 and "牌里有无法识别的字符 'x' 在第 3 列" in shown.stderr, shown.stderr
