"""`mjcalc score`, `mjcalc variants` and `mjcalc batch`: a thin shell over the library.

Each parses its arguments, calls the library (`score_hand`, `load_ruleset`, `batch.run_file`)
and renders; errors go through `cli.errors_to_exit`.
"""

from __future__ import annotations

import inspect
import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..api import score_hand
from ..core.hand import seat
from ..core.stdout import OutputError
from ..present.render import print_explain, print_table, to_json
from .app import emit, emit_json, errors_to_exit, stdout_open
from .options import (
    KEYWORD,
    TABLE_OR_JSON,
    ExtraFieldsOption,
    FlagCommand,
    FormatOption,
    Lang,
    LangOption,
    SheetOption,
    VerboseOption,
    chosen_format,
    complete_key,
    completing,
    hand_inputs,
    hand_signature,
    hand_text,
)


def _score(**params: Any) -> None:
    """Score one winning hand and show what each seat pays.

    HAND is the concealed tiles with the winning tile last: digits then a suit,
    m 万 p 筒 s 条 z 字 (1z-7z 东南西北白发中), or 汉字, or several words:

    \b
      mjcalc score 123456m13m99p555p2m --self-draw
      mjcalc score 一万二万三万456万13万99筒555饼2万
      mjcalc score 13m 456m 678m 11p 555p 2m
      echo 123456m13m99p555p2m | mjcalc score - --self-draw

    A meld may name who fed it, --meld 555p@opposite (@next, @previous, @下家 @对家 @上家):
    then liability (包牌, 承包, 反包) applies and JSON gains `liability`.

    Example: mjcalc score 123456m13m99p555p2m --variant wuhu315 --self-draw
    """
    explain: bool = params.pop("explain")
    json_out, lang, rules, overrides, words, values = hand_inputs(params)
    with errors_to_exit(json_out):
        result = score_hand(hand_text(words), rules=rules, overrides=overrides, spelling="cli", **values)
    if json_out:
        emit_json(to_json(result, explain=explain))
        return
    stdout_open()
    try:
        print_table(result, lang.value, dealer_seat=seat(values.get("dealer_seat")), rules_name=rules is not None)
        if explain:
            from ..api.explain import explain as explain_result

            print_explain(explain_result(result), lang.value)
    except OSError as exc:
        raise OutputError(exc) from None


def _score_parameters() -> inspect.Signature:
    return hand_signature(after=[inspect.Parameter("explain", KEYWORD, default=False, annotation=Annotated[
        bool, typer.Option("--explain", help="Also show every reading the scorer considered, its value, and why the chosen one won.")])])


score_command = FlagCommand(_score, _score_parameters)


def variants(
    out_format: FormatOption = None,
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print JSON (the same as --format json).")] = False,
    lang: LangOption = Lang.zh,
) -> None:
    """List the shipped rulesets.

    Example: mjcalc variants
    """
    from ..rules.loader import load_ruleset, shipped_names

    json_out = chosen_format(out_format, TABLE_OR_JSON, "table", json=json_out) == "json"
    with errors_to_exit(json_out):
        rows = []
        for name in shipped_names():
            rs = load_ruleset(name)
            rows.append({"name": name, "version": rs.version, "zh": rs.data["title"]["zh"], "en": rs.data["title"]["en"]})
    if json_out:
        emit_json(json.dumps(rows, ensure_ascii=False))
        return
    from ..core.words import language

    chosen = language()  # a chosen language: its title alone; none: both, as always
    emit("\n".join(f"{row['name']:<10} {row['version']:<8} " + (row[chosen] if chosen else f"{row['zh']}  ({row['en']})") for row in rows))


class InFormat(str, Enum):
    jsonl = "jsonl"
    yaml = "yaml"
    csv = "csv"
    xlsx = "xlsx"


BATCH_FORMATS = ("jsonl", "csv", "summary", "json")


def batch(
    file: Annotated[str, typer.Argument(metavar="FILE", help="Records to score: a .jsonl/.ndjson, .yaml/.yml, .csv or .xlsx file; - reads stdin.")],
    input_format: Annotated[InFormat | None, typer.Option("--input-format", "-i", metavar="jsonl|yaml|csv|xlsx", help="Input format (default: from the extension; JSON Lines for stdin).")] = None,
    out_format: Annotated[str | None, typer.Option(
        "--format", "-o", metavar="jsonl|csv|summary", autocompletion=completing(BATCH_FORMATS),
        help="Output: jsonl (default when stdout is not a terminal; json is the same), csv, or summary (default on a terminal).")] = None,
    json_out: Annotated[bool, typer.Option("--json", "-j", help="The same as --format jsonl.")] = False,
    csv_out: Annotated[bool, typer.Option("--csv", help="The same as --format csv.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", metavar="N", help="Worker processes, 1 to 4 per CPU (output order is unchanged).")] = 1,
    fail_fast: Annotated[bool, typer.Option("--fail-fast", help="Stop at the first record that is an error.")] = False,
    rules: Annotated[Path | None, typer.Option("--rules", "-r", metavar="FILE", help="A ruleset YAML file for the records that name no variant.")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="KEY=VALUE", show_default=False, autocompletion=complete_key,
                                            help="Override one ruleset key for every record (see `mjcalc options`). Repeatable.")] = [],  # noqa: B006
    extra_fields: ExtraFieldsOption = "error",
    sheet: SheetOption = None,
    verbose: VerboseOption = False,
    lang: LangOption = Lang.zh,
) -> None:
    """Score many hands: one result per record, in input order.

    Each record has the fields of `score`'s flags (hand, variant, win, self_draw,
    melds, …) plus an optional id that is echoed back. Exit status 1 if any record
    is an error row (a hand that is not a win is an answer, not an error), else 0;
    2 if the request is wrong (nothing is read); 3 if the run had to stop (a worker
    died, the output cannot be written): stderr then says from which line to resume.

    Example: printf '{"id": 1, "hand": "123456m13m99p555p2m", "self_draw": true}\\n' | mjcalc batch -
    """
    from ..batch import run_file

    # JSON Lines is batch's JSON: --json, -o json and -o jsonl are one format
    chosen = chosen_format("json" if out_format == "jsonl" else out_format, BATCH_FORMATS, "", json=json_out, csv=csv_out)
    with errors_to_exit(False):
        code = run_file(file, input_format.value if input_format else None, ("jsonl" if chosen == "json" else chosen) or None, jobs, fail_fast,
                        str(rules) if rules is not None else None, set_, extra_fields, sheet, verbose)
    raise typer.Exit(code)
