"""`mjcalc options`: every key `--set` can change, described; the descriptions checked against rulesets and docs."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.present.option_docs import describe, key_docs_of
from mahjong_calc.present.render_waits import print_options
from mahjong_calc.rules.loader import load_ruleset, shipped_names
from mahjong_calc.rules.registry import VARIANTS

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()
KEYS = {name: key_docs_of(VARIANTS[name]) for name in VARIANTS}
DOCS = {name: VARIANTS[name].docs for name in VARIANTS}


def _sections(doc: str) -> dict[str, str]:
    """`## heading` → the text under it, for one docs/rules file."""
    text = (REPO / doc).read_text(encoding="utf-8")
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


@pytest.mark.parametrize("name", shipped_names())
def test_every_number_option_and_tile_key_is_described(name: str) -> None:
    rs = load_ruleset(name)
    rows = describe(rs.data, rs.scorer)
    missing = [r.key for r in rows if not (r.zh and r.en)]
    assert not missing, f"give these keys a Doc(zh, en, section) in mahjong_calc/variants/{rs.scorer}/ruleset_schema.py: {missing}"
    assert all(r.section for r in rows if not r.key.startswith("title."))


@pytest.mark.parametrize("scorer", sorted(KEYS))
def test_described_keys_exist_and_their_docs_section_names_them(scorer: str) -> None:
    keys = set()
    for name in shipped_names():
        rs = load_ruleset(name)
        if rs.scorer == scorer:
            keys |= {r.key for r in describe(rs.data, scorer)}
    stale = set(KEYS[scorer]) - keys
    assert not stale, f"described in the schema but in no shipped ruleset: {sorted(stale)}"
    sections = _sections(DOCS[scorer])
    for key, described in KEYS[scorer].items():
        where = described.section
        matching = [body for heading, body in sections.items() if heading.startswith(where)]
        assert len(matching) == 1, (key, where, list(sections))
        if not key.startswith("tiles."):  # tiles are in a table of the section; numbers/options are named
            named = key in matching[0] or key.rsplit(".", 1)[0] + ".*" in matching[0] or key.rsplit(".", 1)[-1] in matching[0]
            assert named, f"{DOCS[scorer]} § {where} does not mention {key}"


def test_set_keys_are_listed_and_values_follow_overrides() -> None:
    out = runner.invoke(app, ["options", "wuhu315", "--json", "--set", "options.ya_dang_edge_wait=true"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    rows = {r["key"]: r for r in data["options"]}
    assert rows["options.ya_dang_edge_wait"]["value"] is True
    assert rows["numbers.min_zhi"]["value"] == 8
    assert rows["numbers.di_fan.self_draw"]["docs"].startswith("docs/rules/wuhu.md § ")
    assert set(rows["options.ya_dang_edge_wait"]) == {"key", "value", "zh", "en", "docs"}
    for key in rows:  # each listed key is one `--set` accepts
        value = json.dumps(rows[key]["value"], ensure_ascii=False)
        done = runner.invoke(app, ["options", "wuhu315", "--json", "--set", f"{key}={value}"])
        assert done.exit_code == 0, (key, done.output)


def test_rules_file_values(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: chizhou\nname: house\nnumbers: {cap: 4}\n", encoding="utf-8")
    out = runner.invoke(app, ["options", "--rules", str(house), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["variant"] == "house"
    assert {r["key"]: r["value"] for r in data["options"]}["numbers.cap"] == 4


def test_unknown_variant_is_exit_2() -> None:
    out = runner.invoke(app, ["options", "nowhere"])
    assert out.exit_code == 2 and "unknown_variant" in out.output


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_options_table_is_never_cut(width: int, lang: str) -> None:
    rs = load_ruleset("pujiang")
    buf = io.StringIO()
    print_options(rs.name, describe(rs.data, rs.scorer), lang, file=buf, width=width)
    out = buf.getvalue()
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= width
    flat = re.sub(r"[\s|]+", "", out)
    assert "options.subtract_pungs" in flat
    english = "apayerneverowesless" in flat
    chinese = "付款最少为0" in flat
    # one language when narrow or in English; Chinese with the English beside it when wide
    assert (chinese, english) == {("zh", 40): (True, False), ("zh", 80): (True, True),
                                  ("en", 40): (False, True), ("en", 80): (False, True)}[(lang, width)]
