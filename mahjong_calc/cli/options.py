"""The Typer parameters that several commands share: a declared flag's option (flags.fields()),
--rules/--set/--json/--lang, the one `Lang` choice, --extra-fields (`batch`, `game settle`, `stats`)
and how game files are read (`reads_game_files`: `game settle`, `stats`: --variant, --players, --dealer
and --extra-fields, declared once).

`score`, `waits` and `game add` build their signatures from the declared flags here, so that
a flag added to `flags.fields()` reaches every command that takes it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..core import flags as flag_table
from ..core.flags import Field

if TYPE_CHECKING:
    from ..game.log import Games

KEYWORD = inspect.Parameter.KEYWORD_ONLY


class Lang(str, Enum):
    """The language of a table: Chinese (the default) or English."""

    zh = "zh"
    en = "en"


def lang_given(ctx: typer.Context, param: typer.CallbackParam, value: Lang) -> Lang:
    """The language of the command's texts: `--lang` if given, else MJCALC_LANG, else the locale
    (core/words.language_from_env); with none of them, tables keep their default (zh, with the
    English beside it where wide) and messages are English."""
    from ..core.words import language_from_env, set_language

    source = ctx.get_parameter_source(param.name) if param.name else None
    if source is not None and source.name == "COMMANDLINE":
        set_language(value.value)
        return value
    chosen = language_from_env()
    set_language(chosen)
    return Lang(chosen) if chosen is not None else value


LANG_HELP = ("Language of everything shown, tables and messages alike: zh or en, each alone (default: MJCALC_LANG, else a zh "
             "locale, else Chinese tables with their English beside them and English messages).")
LangOption = Annotated[Lang, typer.Option("--lang", "-l", metavar="zh|en", show_default=False, callback=lang_given, help=LANG_HELP)]


def complete_variant(incomplete: str) -> list[str]:
    """Shell completion of a variant: the shipped rulesets' names."""
    from ..rules.loader import shipped_names

    return [name for name in shipped_names() if name.startswith(incomplete)]


def complete_key(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of `--set KEY=VALUE`: the keys of the ruleset the line names (--variant or
    VARIANT, else wuhu315), each with its `=`; after the `=`, a yes/no key's two values."""
    from ..core.errors import MjcalcError
    from ..rules.loader import keys_of, load_ruleset, shipped_names

    given = [ctx.params.get("variant"), *ctx.args]  # an option's value is a parameter; an argument's is still among the args
    name = next((v for v in given if isinstance(v, str) and v in shipped_names()), "wuhu315")
    try:
        data = load_ruleset(name).data
    except MjcalcError:
        return []
    key, eq, _ = incomplete.partition("=")
    if eq:
        node: Any = data
        for part in key.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        return [f"{key}={v}" for v in ("true", "false") if isinstance(node, bool) and f"{key}={v}".startswith(incomplete)]
    return [f"{k}=" for k in keys_of(data) if k.startswith(incomplete)]


def not_an_option(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
    """Refuse a value that is one of the command's own options: in `--meld --lang zh`, Click
    would take `--lang` as the meld and `zh` as more of the hand, and the error would point there."""
    names = {name for p in ctx.command.params for name in (*p.opts, *p.secondary_opts)}
    for one in value if isinstance(value, list) else (value,):
        if isinstance(one, str) and one in names:
            from .usage import missing_value

            raise missing_value(ctx, param.opts[0])
    return value


def flag_option(field: Field, extra_help: str = "", metavar: str | None = None) -> inspect.Parameter:
    """The `score` parameter for one declared field: its Typer option, type and default.

    `game add` reuses it with `extra_help` and its own `metavar` (a seat is a player's name there).
    """
    help_text = field.en + ("" if field.variants is None else f" [{', '.join(field.variants)} only]") + extra_help
    if field.argument:  # several words are one hand: `13m 456m 2m`
        return inspect.Parameter(field.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[
            list[str], typer.Argument(help=help_text + " Several words are joined; - reads them from stdin.", metavar="HAND...",
                                      show_default=False)])
    valued = field.kind != "bool"  # a value that is another option is refused (not_an_option)
    info = typer.Option(*field.cli, help=help_text, metavar=metavar or field.metavar, show_default=False,
                        callback=not_an_option if valued else None, autocompletion=complete_variant if field.name == "variant" else None)
    kind: Any
    default: Any = None
    if not valued:
        kind, default = bool, False
    elif field.kind == "melds":
        kind, default = list[str], []
    else:  # text, tiles, counts, seats: the library parses them, so a bad one gets its own code (bad_piao, bad_seat)
        kind = str | None
    return inspect.Parameter(field.name, KEYWORD, default=default, annotation=Annotated[kind, info])


def common_options() -> tuple[inspect.Parameter, ...]:
    """--rules, --set, --format, --json and --lang, as `score` and `waits` take them (built afresh for each)."""
    return (
        inspect.Parameter("rules", KEYWORD, default=None, annotation=Annotated[Path | None, typer.Option(
            "--rules", "-r", metavar="FILE", help="A ruleset YAML file; it may say `extends: wuhu315`.")]),
        inspect.Parameter("set_", KEYWORD, default=[], annotation=Annotated[list[str], typer.Option(
            "--set", metavar="KEY=VALUE", show_default=False, autocompletion=complete_key,
            help="Override one ruleset key, e.g. options.ya_dang_edge_wait=true (see `mjcalc options`). Repeatable.")]),
        inspect.Parameter("out_format", KEYWORD, default=None, annotation=FormatOption),
        inspect.Parameter("json_out", KEYWORD, default=False, annotation=Annotated[bool, typer.Option("--json", "-j", help=JSON_HELP)]),
        inspect.Parameter("lang", KEYWORD, default=Lang.zh, annotation=Annotated[Lang, typer.Option(
            "--lang", "-l", metavar="zh|en", show_default=False, callback=lang_given,
            help=LANG_HELP)]),
    )


def completing(choices: tuple[str, ...]) -> Callable[[str], list[str]]:
    def complete(incomplete: str) -> list[str]:
        return [c for c in choices if c.startswith(incomplete)]

    return complete


def format_option(choices: tuple[str, ...], help_text: str) -> Any:
    """`--format/-o FORMAT`, the one spelling of an output format on every command that writes one;
    its value is checked by `output_format` (with the aliases --json and --csv)."""
    return Annotated[str | None, typer.Option("--format", "-o", metavar="|".join(choices), show_default=False, help=help_text,
                                              autocompletion=completing(choices))]


TABLE_OR_JSON = ("table", "json")
FormatOption = format_option(TABLE_OR_JSON, "table (the default) or json (the same as --json).")
JSON_HELP = "Print one JSON object instead of a table (the same as --format json)."


def output_format(given: str | None, choices: tuple[str, ...], default: str, **aliases: bool) -> str:
    """The output format a command line asks for: `--format/-o` (one of `choices`), or one of the flags
    that name a format (`json=True` for --json, `csv=True` for --csv); `default` when none is given.
    Two that name different formats are refused (conflicting_flags), a format not among `choices` too."""
    from ..core.errors import InputError, shown

    if given is not None and given not in choices:
        raise InputError("bad_format", "--format must be one of {choices}, not {value}", choices=", ".join(choices), value=shown(given, 20))
    named = [f"--{name}" for name, on in aliases.items() if on]
    chosen = [name for name, on in aliases.items() if on]
    if given is not None and any(name != given for name in chosen):
        raise InputError("conflicting_flags", "{first} and {second}: give one", first=f"--format {given}", second=named[0])
    if len(set(chosen)) > 1:
        raise InputError("conflicting_flags", "{first} and {second}: give one", first=named[0], second=named[1])
    return given if given is not None else chosen[0] if chosen else default


def chosen_format(given: str | None, choices: tuple[str, ...], default: str, **aliases: bool) -> str:
    """`output_format`, its refusal said as every error is (cli.app.errors_to_exit), in JSON too where JSON was asked for."""
    from .app import errors_to_exit

    with errors_to_exit(given == "json" or aliases.get("json", False)):
        return output_format(given, choices, default, **aliases)
    raise AssertionError("errors_to_exit exits")


def hand_signature(without: Iterable[str] = (), hand: inspect.Parameter | None = None,
                   after: Iterable[inspect.Parameter] = ()) -> inspect.Signature:
    """HAND, --variant, --rules, --set, every declared flag in table order (bar `without`),
    --json, --lang, then `after`: the signature of `score` and `waits`."""
    skip = set(without)
    declared = {f.name: flag_option(f) for f in flag_table.fields() if f.cli and f.name not in skip}
    given_hand, variant = declared.pop("hand"), declared.pop("variant")
    rules, set_, out_format, json_out, lang = common_options()
    return inspect.Signature([hand or given_hand, variant, rules, set_, *declared.values(), out_format, json_out, lang, *after])


class FlagCommand:
    """A command whose parameters are made: `FlagCommand(run, parameters)` is `run` (taking **params)
    as Typer sees a function with the signature `parameters()` gives, made when Typer reads it (once,
    and kept), so that a flag of the declaration is among
    them (and a game-file command's shared options, `reads_game_files`). Nothing is rewritten on import."""

    def __init__(self, run: Callable[..., None], parameters: Callable[[], inspect.Signature]) -> None:
        self._run = run
        self._parameters = functools.cache(parameters)
        self.__name__ = run.__name__
        self.__qualname__ = run.__qualname__
        self.__module__ = run.__module__
        self.__doc__ = run.__doc__

    @property
    def __signature__(self) -> inspect.Signature:
        """What `inspect.signature` (and so Typer) reads."""
        return self._parameters()

    @property
    def __annotations__(self) -> dict[str, Any]:  # type: ignore[override]
        """What `typing.get_type_hints` (and so Typer) reads."""
        return {p.name: p.annotation for p in self._parameters().parameters.values()} | {"return": None}

    def __call__(self, **params: Any) -> None:
        self._run(**params)


STDIN_LIMIT = 4096  # characters of a hand read from stdin: far more than a hand, and never unbounded


def hand_text(words: list[str]) -> str:
    """HAND's words joined; `-` alone reads the hand from stdin (its lines and words joined alike)."""
    if words != ["-"]:
        return " ".join(words)
    import sys

    from ..core.errors import InputError

    if sys.stdin is None:
        raise InputError("cannot_read_input", "standard input is closed (give the hand, or a pipe to '-')")
    try:
        text = sys.stdin.read(STDIN_LIMIT + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError("cannot_read_input", "cannot read the hand from standard input: {reason}", reason=exc) from None
    if not text.strip():
        raise InputError("empty_hand", "standard input holds no tiles")
    return " ".join(text.split())


def hand_inputs(params: dict[str, Any]) -> tuple[bool, Lang, Path | None, list[str], list[str], dict[str, Any]]:
    """What `score` and `waits` were given: --json, --lang, --rules, --set, HAND's words (`hand_text`
    joins them, or reads stdin for `-`) and the declared flags' values (enums as their text)."""
    json_out = chosen_format(params.pop("out_format"), TABLE_OR_JSON, "table", json=params.pop("json_out")) == "json"
    lang: Lang = params.pop("lang")
    rules, overrides = params.pop("rules"), params.pop("set_")
    values = {name: value.value if isinstance(value, Enum) else value for name, value in params.items()}
    return json_out, lang, rules, overrides, values.pop("hand"), values


# --extra-fields: one option for every command reading records or game files; the library checks the value
# (bad_extra_fields), so that each command answers a wrong one with the same code.
ExtraFieldsOption = Annotated[str, typer.Option(
    "--extra-fields", metavar="error|keep", show_default=False,
    help='A field (a column, a key) that is not a field of a record: an unknown_field error row (error, the default), '
         'or echoed under "extra" in its row, and in batch\'s CSV output as trailing columns (keep; stats counts the hand).')]


# --sheet and --verbose: how a spreadsheet is read (`batch`, `game settle`, `stats`)
SheetOption = Annotated[str | None, typer.Option(
    "--sheet", metavar="NAME|all", show_default=False,
    help="The sheet of a workbook (.xlsx) to read (default: the first; all: every sheet, in order).")]
VerboseOption = Annotated[bool, typer.Option(
    "--verbose", help="Say on stderr how each file was read: a CSV file's encoding (UTF-8 or GB18030), a workbook's sheets.")]


def _game_file_parameters() -> list[inspect.Parameter]:
    """--variant, --players and --dealer (the header fields a game file may leave out: a CSV log without
    a variant or players column), then --extra-fields."""
    return [
        inspect.Parameter("variant", KEYWORD, default=None, annotation=Annotated[str | None, typer.Option(
            "--variant", "-v", metavar="NAME", show_default=False, autocompletion=complete_variant,
            help="The variant of games whose header names none (a CSV log).")]),
        inspect.Parameter("players", KEYWORD, default=None, annotation=Annotated[str | None, typer.Option(
            "--players", metavar="A,B,C,D", show_default=False,
            help="The players of games whose header names none, comma-separated in seat order E,S,W,N.")]),
        inspect.Parameter("dealer", KEYWORD, default=None, annotation=Annotated[str | None, typer.Option(
            "--dealer", metavar="NAME", show_default=False, help="The first dealer of games whose header names none.")]),
        inspect.Parameter("extra_fields", KEYWORD, default="error", annotation=ExtraFieldsOption),
        inspect.Parameter("sheet", KEYWORD, default=None, annotation=SheetOption),
        inspect.Parameter("verbose", KEYWORD, default=False, annotation=VerboseOption),
    ]


@dataclass(frozen=True)
class GameFiles:
    """How a command reads game files, as `game settle` does: the defaults --variant, --players and
    --dealer give a header that names none, --extra-fields, and a workbook's --sheet; --verbose."""

    defaults: dict[str, Any]
    extra_fields: str
    sheet: str | None = None
    verbose: bool = False

    def open(self, name: str) -> Games:
        """The games of the file `name` (- is stdin): `game.log.open_games`; what stderr should say of how
        it was read (`Games.notes`, and with --verbose `Games.details`) is said now."""
        import sys

        from ..game.log import open_games

        games = open_games(name, self.defaults, self.extra_fields, self.sheet)
        for note in (*games.notes, *(games.details if self.verbose else ())):
            sys.stderr.write(f"mjcalc: {note.render()}\n")
        return games


def reads_game_files(run: Callable[..., None]) -> FlagCommand:
    """`run` as a command that reads game files: its own parameters, then --variant, --players, --dealer
    and --extra-fields, which reach `run` as one `GameFiles`, its parameter `files_read`."""

    def parameters() -> inspect.Signature:
        own = inspect.signature(run, eval_str=True)
        return own.replace(parameters=[p for p in own.parameters.values() if p.name != "files_read"] + _game_file_parameters())

    @functools.wraps(run)
    def command(*, variant: str | None, players: str | None, dealer: str | None, extra_fields: str, sheet: str | None, verbose: bool,
                **params: Any) -> None:
        defaults = {"variant": variant, "players": [p.strip() for p in players.split(",")] if players is not None else None, "dealer": dealer}
        run(**params, files_read=GameFiles(defaults, extra_fields, sheet, verbose))

    return FlagCommand(command, parameters)
