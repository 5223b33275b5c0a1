"""The win situation is declared once (mahjong_calc/core/flags.py); everything else agrees with it."""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
from pathlib import Path
from typing import Any

import pytest
import typer

from mahjong_calc import generate
from mahjong_calc.api import score_hand
from mahjong_calc.cli.app import app
from mahjong_calc.core.batch_record import normalize, normalize_csv, record_id, record_kinds, score_kwargs
from mahjong_calc.core.context import WinContext
from mahjong_calc.core.errors import InputError, MjcalcError, shown
from mahjong_calc.core.flag_docs import README_END, README_START, readme_table, schema_text
from mahjong_calc.core.flags import MAX_PIAO, MAX_PUNGS, by_name, fields, key_fields, win_flags
from mahjong_calc.core.hand import make_context
from mahjong_calc.game import json_schema as game_schema
from mahjong_calc.rules.loader import load_ruleset, shipped_names
from mahjong_calc.rules.registry import VARIANTS

SCORERS = tuple(VARIANTS)
FIELDS, BY_NAME, FLAGS = fields(), by_name(), win_flags()  # as shipped

# A value that sets a flag of each kind (so a new flag needs no line here).
SET_BY_KIND: dict[str, Any] = {"bool": True, "seat": "next", "tile": "3m", "count": 1, "maybe_count": 1, "pungs": "1,0,0"}
SET_VALUE: dict[str, Any] = {f.name: SET_BY_KIND[f.kind] for f in FLAGS}
VARIANT_OF = {load_ruleset(name).scorer: name for name in reversed(shipped_names())}  # a shipped ruleset of each scorer, the first by name
HAND = "123456m13m99p555p2m"
REPO = Path(__file__).resolve().parent.parent


# --- one declaration, the same everywhere ----------------------------------------------------


def test_every_flag_kind_has_a_value_in_this_test() -> None:
    assert {f.kind for f in FLAGS} <= set(SET_BY_KIND)


# the type a WinContext fact has, by the declared kind (a tile is its number, a seat its name)
FACT_TYPE = {"bool": "bool", "seat": "Seat | None", "tile": "int | None", "count": "int", "maybe_count": "int | None",
             "pungs": "tuple[int, int, int] | None"}


def _written_types() -> dict[str, str]:
    """WinContext's facts as core/context.py writes them (a compiled class keeps no annotations of its own)."""
    import ast

    from mahjong_calc.core import context

    tree = ast.parse((Path(context.__file__).parent / "context.py").read_text(encoding="utf-8"))
    body = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "WinContext").body
    return {node.target.id: ast.unparse(node.annotation) for node in body if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}


def test_win_context_holds_exactly_the_declared_flags() -> None:
    facts = dataclasses.fields(WinContext)
    written = _written_types()
    assert {f.name for f in facts} == {f.name for f in FLAGS} == set(written)
    for fact in facts:  # field for field: its type and its "absent" follow from the declaration
        declared = BY_NAME[fact.name]
        assert written[fact.name] == FACT_TYPE[declared.kind], fact.name
        assert fact.default == declared.default, fact.name


def test_every_field_is_declared_completely() -> None:
    names = [f.name for f in FIELDS]
    assert len(names) == len(set(names))
    for field in FIELDS:
        assert field.en and field.zh, field.name
        assert field.variants is None or (field.variants and set(field.variants) <= set(SCORERS)), field.name
        if field.role not in ("flag", "table"):
            assert field.variants is None, f"{field.name}: only flags and the table's fields may be variant-specific"
        assert field.in_record == (field.role != "table"), field.name  # the table's facts only a game record gives
    assert BY_NAME["discarder"].variants is None  # Wuhu liability will need who discarded


def test_every_shipped_variant_has_a_scorer_the_table_knows() -> None:
    assert {load_ruleset(name).scorer for name in shipped_names()} == set(SCORERS)


def test_records_take_the_declared_fields_in_key_order() -> None:
    assert list(record_kinds()) == [f.name for f in FIELDS if f.in_record]
    assert key_fields() == tuple(f.name for f in FIELDS if f.name != "id" and f.in_record)


def test_score_hand_accepts_every_declared_keyword() -> None:
    params = inspect.signature(score_hand).parameters
    for field in FIELDS:
        if field.role in ("hand", "ruleset") and field.name not in ("hand",):
            assert field.name in params, field.name
    with pytest.raises(TypeError, match="nonsense"):
        score_hand(HAND, nonsense=True)
    with pytest.raises(TypeError, match="nonsense"):
        make_context(nonsense=True)


def test_score_hand_takes_each_declared_flag_and_passes_it_on() -> None:
    """Its flags are the declaration's, written once (`**flags`, checked against the table): each
    declared flag is taken and reaches the checks with its value (the facts the session worked out
    are keyed by the flags' values), every other flag left at its "absent"."""
    from mahjong_calc.api.session import ABSENT, FLAG_NAMES, Session
    from mahjong_calc.core.errors import MjcalcError

    params = list(inspect.signature(score_hand).parameters.values())
    assert params[-1].kind is inspect.Parameter.VAR_KEYWORD
    assert not {p.name for p in params} & {f.name for f in FLAGS}  # no flag is written a second time
    assert tuple(f.name for f in FLAGS) == FLAG_NAMES
    for field in FLAGS:
        session = Session()
        value = SET_BY_KIND[field.kind]
        with contextlib.suppress(MjcalcError):
            score_hand(HAND, variant="pujiang" if field.variants == ("pujiang",) else None, session=session, **{field.name: value})
        (key,) = session.facts.made
        values = key[3]
        assert values[FLAG_NAMES.index(field.name)] == value, field.name
        assert all(v == absent for name, v, absent in zip(FLAG_NAMES, values, ABSENT) if name != field.name), field.name


def _score_options() -> dict[str, Any]:
    root = typer.main.get_command(app)
    command = root.get_command(typer.Context(root), "score")  # type: ignore[attr-defined]
    return {param.name: param for param in command.params}


def test_score_options_are_built_from_the_table() -> None:
    options = _score_options()
    for field in FIELDS:
        if not field.cli:
            assert field.name not in options
        elif field.argument:
            assert options[field.name].param_type_name == "argument"
        else:
            assert tuple(options[field.name].opts) == field.cli, field.name
            assert field.en in options[field.name].help


@pytest.mark.parametrize(
    ("name", "opts"),
    [("variant", ("--variant", "-v")), ("rules", ("--rules", "-r")), ("set_", ("--set",)),
     ("json_out", ("--json", "-j")), ("lang", ("--lang", "-l")), ("self_draw", ("--self-draw", "-s")),
     ("discarder", ("--discarder", "-f")), ("melds", ("--meld", "-m")), ("concealed_kongs", ("--concealed-kong", "-k")),
     ("win", ("--win", "-w")), ("dealer", ("--dealer", "-d"))],
)
def test_the_existing_spellings_are_kept(name: str, opts: tuple[str, ...]) -> None:
    assert tuple(_score_options()[name].opts) == opts


def test_the_flag_doc_and_schema_are_generated_from_the_table() -> None:
    """In the source tree (which CI may not import: it tests the installed package)."""
    cli_doc = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    block = f"{README_START}\n{readme_table()}{README_END}"
    assert block in cli_doc, "docs/cli.md is stale: run python -m mahjong_calc.generate"
    schema = (REPO / "mahjong_calc" / "record.schema.json").read_text(encoding="utf-8")
    assert schema == schema_text(), "record.schema.json is stale: run python -m mahjong_calc.generate"
    game = (REPO / "mahjong_calc" / "game.schema.json").read_text(encoding="utf-8")
    assert game == game_schema.schema_text(), "game.schema.json is stale: run python -m mahjong_calc.generate"
    assert generate.main(["--check"]) == 0  # every file it writes
    table = readme_table()
    for field in FLAGS:
        assert f"`{field.name}`" in table and field.cli[0] in table


def test_generate_check_reports_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "record.schema.json"
    stale.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(generate, "targets", lambda: [(stale, schema_text())])
    assert generate.main(["--check"]) == 1 and "out of date" in capsys.readouterr().err
    assert generate.main([]) == 0 and stale.read_text(encoding="utf-8") == schema_text()
    assert generate.main(["--check"]) == 0


# --- a flag the variant does not use ----------------------------------------------------------

CASES = [(field.name, scorer) for field in FLAGS for scorer in SCORERS]


@pytest.mark.parametrize(("name", "scorer"), CASES)
def test_a_flag_is_refused_exactly_where_its_variant_does_not_take_it(name: str, scorer: str) -> None:
    field = BY_NAME[name]
    try:
        score_hand(HAND, variant=VARIANT_OF[scorer], **{name: SET_VALUE[name]})
    except MjcalcError as err:
        refused = err.code == "flag_not_in_variant"
        if refused:
            assert err.exit_code == 2
            assert err.message.startswith(f"{name} does not apply to {VARIANT_OF[scorer]}")
            assert field.variants is not None and ", ".join(field.variants) in err.message
    else:
        refused = False
    assert refused == (field.variants is not None and scorer not in field.variants)


@pytest.mark.parametrize("name", [f.name for f in FLAGS])
def test_a_flag_at_its_default_is_not_a_use(name: str) -> None:
    for scorer in SCORERS:
        try:
            score_hand(HAND, variant=VARIANT_OF[scorer], **{name: BY_NAME[name].default})
        except MjcalcError as err:
            assert err.code != "flag_not_in_variant"


# --- bounds --------------------------------------------------------------------------------

PIAO_HAND = ("111m222p333s444s3m7z", {"variant": "pujiang", "wild": "3m"})


@pytest.mark.parametrize("piao", [MAX_PIAO + 1, 20000, 10**9, 10**12, 10**5000, -1, "1e12", "two", True], ids=shown)
def test_piao_is_bounded(piao: Any) -> None:
    hand, flags = PIAO_HAND
    with pytest.raises(InputError) as info:
        score_hand(hand, **flags, piao=piao)
    assert info.value.code == "bad_piao"
    assert len(info.value.message) < 200


@pytest.mark.parametrize("piao", [0, 1, MAX_PIAO])
def test_piao_within_bounds_scores(piao: int) -> None:
    hand, flags = PIAO_HAND
    result = score_hand(hand, **flags, piao=piao)
    assert result.patterns.count("piao_cai") == (1 if piao else 0)


@pytest.mark.parametrize("pungs", [f"{MAX_PUNGS + 1},0,0", "-1,0,0", "1,1", "1,1,1,1", [9, 0, 0], [1, 0], [True, 0, 0], "١,0,0"])
def test_opponent_pungs_are_bounded(pungs: Any) -> None:
    hand, flags = PIAO_HAND
    with pytest.raises(InputError) as info:
        score_hand(hand, **flags, opponent_pungs=pungs)
    assert info.value.code == "bad_opponent_pungs"


def test_opponent_pungs_up_to_the_bound_score() -> None:
    hand, flags = PIAO_HAND
    result = score_hand(hand, **flags, opponent_pungs=f"{MAX_PUNGS}, 0 ,1")
    assert result.payments["opposite"] > result.payments["previous"]


# --- records: huge numbers never crash --------------------------------------------------------


def test_a_huge_piao_in_a_record_is_bad_piao() -> None:
    key, _ = normalize({"hand": PIAO_HAND[0], "variant": "pujiang", "wild": "3m", "piao": 10**5000})
    with pytest.raises(InputError) as info:
        score_hand(**score_kwargs(key))
    assert info.value.code == "bad_piao" and "piao must be" in info.value.message and "--piao" not in info.value.message


def test_a_record_names_the_field_not_the_option() -> None:
    key, _ = normalize({"hand": HAND, "piao": 2})
    with pytest.raises(InputError) as info:
        score_hand(**score_kwargs(key))
    assert info.value.code == "flag_not_in_variant"
    assert info.value.message.startswith("piao does not apply to wuhu315") and "pujiang" in info.value.message


@pytest.mark.parametrize("record", [{"hand": 10**5000}, {"hand": HAND, "id": 10**5000}, {"hand": HAND, "id": 2**63}], ids=shown)
def test_huge_integers_elsewhere_are_bad_fields(record: dict[str, Any]) -> None:
    with pytest.raises(InputError) as info:
        normalize(record)
    assert info.value.code == "bad_field" and len(info.value.message) < 200
    assert record_id(record) is None


def test_a_huge_csv_number_is_an_error_not_a_crash() -> None:
    with pytest.raises(InputError) as info:
        normalize_csv({"hand": HAND, "piao": "9" * 5000})
    assert info.value.code == "bad_piao"


# --- shown() ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["\x1b]0;PWNED\x07", "12\n3x", "\udcff", "x" * 10_000, 10**5000, [10**5000], "\u202eevil", b"\xff"], ids=shown
)
def test_shown_is_short_printable_and_one_line(value: object) -> None:
    text = shown(value)
    assert len(text) <= 80
    assert text.isprintable()
    text.encode("utf-8")


def test_shown_is_repr_for_ordinary_values() -> None:
    assert shown("3m") == "'3m'" and shown(12) == "12" and shown("中") == "'中'"


