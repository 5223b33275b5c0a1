"""`mjcalc waits` and `mjcalc options`: the questions asked at the table before the win.

A thin shell like `cli/score.py`'s `score_command`: parse the flags, call the library (`waits.hand_waits`,
`options.describe`), render. Errors go through `cli.errors_to_exit`.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ..core.words import N_
from .app import emit_json, errors_to_exit
from .options import (
    JSON_HELP,
    TABLE_OR_JSON,
    FlagCommand,
    FormatOption,
    Lang,
    LangOption,
    chosen_format,
    complete_key,
    complete_variant,
    hand_inputs,
    hand_signature,
    hand_text,
)

HAND_HELP = "The 13 tiles before the win (3 fewer per meld). Several words are joined: 13m 456m 99p; - reads them from stdin."


def _waits(**params: Any) -> None:
    """List every tile that completes a 13-tile hand, copies left, and its score.

    Each wait is scored as a discard win and as a self-drawn win, exactly as
    `mjcalc score` would score the 14 tiles; the discard column assumes
    --discarder previous (上家) unless you name one. Exit status 1 when no tile
    wins (the reason is printed: e.g. a Wuhu hand without 八支).

    Example: mjcalc waits 123456m13m99p555p
    """
    from ..api.waits import hand_waits
    from ..present.render_waits import print_waits

    json_out, lang, rules, overrides, words, values = hand_inputs(params)
    with errors_to_exit(json_out):
        result = hand_waits(hand_text(words), rules=rules, overrides=overrides, spelling="cli", **values)
    if json_out:
        from ..present.answers import waits_json

        emit_json(waits_json(result))
    else:
        print_waits(result, lang.value, rules_name=rules is not None)
    if result.reason is not None:  # a hand that waits on nothing: no refused win, its own words
        typer.echo(f"mjcalc: {N_('no waits')} [{result.reason.code}]: {result.reason.message}", err=True)
        raise typer.Exit(1)


def _waits_parameters() -> inspect.Signature:
    # `score`'s flags that do not apply before the win (the winning tile and how it came)
    return hand_signature(without=("win", "self_draw"), hand=inspect.Parameter(
        "hand", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[
            list[str], typer.Argument(metavar="HAND...", help=HAND_HELP, show_default=False)]))


waits = FlagCommand(_waits, _waits_parameters)


def options(
    variant: Annotated[str | None, typer.Argument(metavar="VARIANT", help="A shipped ruleset (see `mjcalc variants`). Default wuhu315.", show_default=False,
                                                  autocompletion=complete_variant)] = None,
    rules: Annotated[Path | None, typer.Option("--rules", "-r", metavar="FILE", help="Show a ruleset YAML file's values instead (it may say `extends: wuhu315`).")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="KEY=VALUE", help="Show the values with this override applied. Repeatable.", show_default=False,
                                            autocompletion=complete_key)] = [],  # noqa: B006
    out_format: FormatOption = None,
    json_out: Annotated[bool, typer.Option("--json", "-j", help=JSON_HELP)] = False,
    lang: LangOption = Lang.zh,
) -> None:
    """List every ruleset key that `--set` and `--rules` can change, with its value and meaning.

    Each key has its current value, a description in Chinese and English, and the
    section of docs/rules/<variant>.md that explains the reading.

    Example: mjcalc options wuhu315
    """
    from ..api.waits import resolve
    from ..present.option_docs import describe
    from ..present.render_waits import print_options

    json_out = chosen_format(out_format, TABLE_OR_JSON, "table", json=json_out) == "json"
    with errors_to_exit(json_out):
        rs = resolve(variant, rules, set_)
        rows = describe(rs.data, rs.scorer)
    if json_out:
        out = {"variant": rs.name, "ruleset_version": rs.version, "scorer": rs.scorer, "options": [r.to_dict() for r in rows]}
        emit_json(json.dumps(out, ensure_ascii=False))
    else:
        print_options(rs.name, rows, lang.value)


def _advise(**params: Any) -> None:
    """Which tile to throw: for each discard, the shanten under the variant's own win rules.

    HAND is the 14 tiles after the draw (3 fewer per meld). Each row gives the shanten of
    the 13 tiles left (how many tiles from a hand this variant lets win: 八支, 花, three
    pungs, the 财神's 番 ...), the tiles that lower it with the copies left, and at 听牌
    (0) every wait scored as `mjcalc waits` scores it, with the expected self-draw value.
    Rows come best first. --seen names tiles in sight elsewhere (discards, others' melds).
    Melds that no win of the variant can follow make every row 胡不了 (unreachable), and
    the reason is given.

    Example: mjcalc advise 1234567m234p56p99s
    """
    from ..api.advise import hand_advice
    from ..present.render_waits import print_advise

    json_out = chosen_format(params.pop("out_format"), TABLE_OR_JSON, "table", json=params.pop("json_out")) == "json"
    lang: Lang = params.pop("lang")
    words = params.pop("hand")
    with errors_to_exit(json_out):
        result = hand_advice(hand_text(words), spelling="cli", **params)
    if json_out:
        from ..present.answers import advise_json

        emit_json(advise_json(result))
    else:
        print_advise(result, lang.value)


ADVISE_HAND_HELP = "The 14 tiles after the draw (3 fewer per meld). Several words are joined: 1234567m 139p 777z 5m; - reads them from stdin."


def _advise_parameters() -> inspect.Signature:
    from ..core.flags import by_name
    from .options import KEYWORD, common_options, flag_option

    params = [inspect.Parameter("hand", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[
        list[str], typer.Argument(metavar="HAND...", help=ADVISE_HAND_HELP, show_default=False)])]
    params += [flag_option(by_name()[name]) for name in ("variant", "melds", "concealed_kongs", "wild")]
    params += [
        inspect.Parameter("seen", KEYWORD, default=None, annotation=Annotated[str | None, typer.Option(
            "--seen", metavar="TILES", show_default=False,
            help="Tiles in sight elsewhere (discards, others' melds): fewer copies left to draw.")]),
    ]
    params += [p for p in common_options() if p.name in ("out_format", "json_out", "lang")]  # as `score` and `waits` spell them
    return inspect.Signature(params)


advise = FlagCommand(_advise, _advise_parameters)
