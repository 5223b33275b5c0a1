"""`mjcalc waits` and `mjcalc options`: the questions asked at the table before the win.

A thin shell like `cli.score`: parse the flags, call the library (`waits.hand_waits`,
`options.describe`), render. Errors go through `cli._errors_to_exit`.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

class Lang(str, Enum):
    zh = "zh"
    en = "en"


HAND_HELP = "The 13 tiles before the win (3 fewer per meld). Several words are joined: 13m 456m 99p."


def waits(
    hand: Annotated[list[str], typer.Argument(metavar="HAND...", help=HAND_HELP, show_default=False)],
    variant: Annotated[Optional[str], typer.Option("--variant", "-v", metavar="NAME", help="Shipped ruleset (see `mjcalc variants`). Default wuhu315.")] = None,
    rules: Annotated[Optional[Path], typer.Option("--rules", "-r", metavar="FILE", help="A ruleset YAML file; it may say `extends: wuhu315`.")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="KEY=VALUE", help="Override one ruleset key (see `mjcalc options`). Repeatable.", show_default=False)] = [],  # noqa: B006
    meld: Annotated[list[str], typer.Option("--meld", "-m", metavar="TILES", help="An exposed meld: 555p pung, 5555p kong, 123m chow. Repeatable.", show_default=False)] = [],  # noqa: B006
    concealed_kong: Annotated[list[str], typer.Option("--concealed-kong", "-k", metavar="TILES", help="A concealed kong, e.g. 5555p. Repeatable.", show_default=False)] = [],  # noqa: B006
    dealer: Annotated[bool, typer.Option("--dealer", "-d", help="The winner is the dealer (庄家).")] = False,
    dealer_seat: Annotated[Optional[str], typer.Option("--dealer-seat", metavar="SEAT", help="Which payer is the dealer: next|opposite|previous (下家|对家|上家).")] = None,
    discarder: Annotated[Optional[str], typer.Option("--discarder", "-f", metavar="SEAT", help="Who would discard the tile, for the discard column (default previous, 上家).")] = None,
    after_kong: Annotated[bool, typer.Option("--after-kong", help="Win on a kong replacement tile (杠后开花): self-draw only.")] = False,
    robbing_kong: Annotated[bool, typer.Option("--robbing-kong", help="The discard column is a win by robbing a kong (抢杠).")] = False,
    heavenly: Annotated[bool, typer.Option("--heavenly", help="Heavenly hand (天胡): self-draw only.")] = False,
    earthly: Annotated[bool, typer.Option("--earthly", help="Earthly hand (地胡).")] = False,
    wild: Annotated[Optional[str], typer.Option("--wild", metavar="TILE", help="The wild-tile indicator (财神), e.g. 3m (Pujiang).")] = None,
    piao: Annotated[int, typer.Option("--piao", metavar="N", help="Number of 飘财神 (Pujiang).")] = 0,
    opponent_pungs: Annotated[Optional[str], typer.Option("--opponent-pungs", metavar="N,N,N", help="Exposed pungs of NEXT,OPPOSITE,PREVIOUS, e.g. 2,0,1 (Pujiang).")] = None,
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print one JSON object instead of a table.")] = False,
    lang: Annotated[Lang, typer.Option("--lang", "-l", metavar="zh|en", help="Language of the table.")] = Lang.zh,
) -> None:
    """List every tile that completes a 13-tile hand, copies left, and its score.

    Each wait is scored as a discard win and as a self-drawn win, exactly as
    `mjcalc score` would score the 14 tiles. Exit status 1 when no tile wins
    (the reason is printed: e.g. a Wuhu hand without 八支).

    Example: mjcalc waits 123456m13m99p555p
    """
    from .cli import _errors_to_exit
    from .render import print_waits
    from .waits import hand_waits

    with _errors_to_exit(json_out):
        result = hand_waits(
            "".join(hand),
            variant=variant,
            rules=rules,
            overrides=set_,
            melds=meld,
            concealed_kongs=concealed_kong,
            dealer=dealer,
            dealer_seat=dealer_seat,
            discarder=discarder,
            after_kong=after_kong,
            robbing_kong=robbing_kong,
            heavenly=heavenly,
            earthly=earthly,
            wild=wild,
            piao=piao,
            opponent_pungs=opponent_pungs,
        )
    if json_out:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print_waits(result, lang.value, rules_name=rules is not None)
    if result.reason is not None:
        if not json_out:
            typer.echo(f"mjcalc: not a win [{result.reason.code}]: {result.reason.message}", err=True)
        raise typer.Exit(1)


def options(
    variant: Annotated[Optional[str], typer.Argument(metavar="VARIANT", help="A shipped ruleset (see `mjcalc variants`). Default wuhu315.", show_default=False)] = None,
    rules: Annotated[Optional[Path], typer.Option("--rules", "-r", metavar="FILE", help="Show a ruleset YAML file's values instead (it may say `extends: wuhu315`).")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="KEY=VALUE", help="Show the values with this override applied. Repeatable.", show_default=False)] = [],  # noqa: B006
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print one JSON object instead of a table.")] = False,
    lang: Annotated[Lang, typer.Option("--lang", "-l", metavar="zh|en", help="Language of the descriptions in the table.")] = Lang.zh,
) -> None:
    """List every ruleset key that `--set` and `--rules` can change, with its value and meaning.

    Each key has its current value, a description in Chinese and English, and the
    section of docs/rules/<variant>.md that explains the reading.

    Example: mjcalc options wuhu315
    """
    from .cli import _errors_to_exit
    from .option_docs import describe
    from .render import print_options
    from .waits import resolve

    with _errors_to_exit(json_out):
        rs = resolve(variant, rules, set_)
        rows = describe(rs.data, rs.scorer)
    if json_out:
        out = {"variant": rs.name, "ruleset_version": rs.version, "scorer": rs.scorer, "options": [r.to_dict() for r in rows]}
        typer.echo(json.dumps(out, ensure_ascii=False))
    else:
        print_options(rs.name, rows, lang.value)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `mjcalc` app."""
    app.command()(waits)
    app.command()(options)
