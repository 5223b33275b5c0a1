"""`--help` as mjcalc writes it: an argument by its metavar (never its Python type), and on a
Chinese screen every text from the catalogue, laid out by terminal cells.

Click's own layout (`HelpFormatter.section`, `write_dl`) writes the English help; it counts
characters, so a Chinese help (two cells a character) is laid out here, the same way: the usage
line, the help paragraphs (a `\\b` paragraph kept as written), then the arguments, options and
commands, each name in its column and its help wrapped beside it. A help text is a catalogue
msgid (the English written in the command's source); a declared flag's help is its declaration's
Chinese (core/flags.py). `help_msgids` lists every msgid the help of the whole CLI looks up.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

from ..core.words import N_, translated
from ..present.layout import cells, wrap

COL_MAX = 30  # the widest first column, as Click's write_dl
COL_SPACING = 2
SHORT_LIMIT = 45  # a command's short help in its group's list, as Click's


def argument_name(param: Any) -> str:
    """An argument as help names it: its metavar (`HAND...`, `[GAME]`), else its name in capitals."""
    return str(param.metavar or (param.name or "").upper())


def usage_pieces(command: Any, ctx: Any) -> list[str]:
    """The usage line after the command's path: `[OPTIONS] HAND...`, optional arguments in brackets."""
    pieces = [command.options_metavar] if command.options_metavar else []
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            name = argument_name(param)
            pieces.append(name if param.required else f"[{name}]")
    return pieces


def records(command: Any, ctx: Any, help_of: Callable[[Any, tuple[str, str]], str] = lambda param, record: record[1]
            ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(arguments, options): each parameter's name column and its help with Typer's notes (`[required]`),
    as `help_of(param, record)` words it (by default Click's English)."""
    arguments, options = [], []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        if param.param_type_name == "argument":
            arguments.append((argument_name(param), help_of(param, record)))
        elif param.param_type_name == "option":
            options.append((record[0], help_of(param, record)))
    return arguments, options


def write_options(command: Any, ctx: Any, formatter: Any) -> None:
    """The English Arguments and Options sections, as Click lays them out."""
    arguments, options = records(command, ctx)
    for title, rows in (("Arguments", arguments), ("Options", options)):
        if rows:
            with formatter.section(title):
                formatter.write_dl(rows)


# --- Chinese ---------------------------------------------------------------------------------------------

def _paragraphs(text: str) -> Iterator[tuple[bool, str]]:
    """(kept as written, text) for each paragraph of a help text (`\\b` keeps one's lines)."""
    for block in re.split(r"\n\s*\n", inspect.cleandoc(text).partition("\f")[0]):
        if block.startswith("\b"):
            yield True, block.partition("\n")[2]
        else:
            yield False, " ".join(line.strip() for line in block.splitlines())


def _only(match: re.Match[str]) -> str:
    return N_("[{variants} only]", variants=match.group(1)).render("zh")


_ONLY = re.compile(r"\[([\w, ]+) only\]")


def _flag_help(name: str | None, text: str) -> str | None:
    """A declared flag's help (core/flags.py: its English, `[wuhu only]`, then what a command adds), in Chinese."""
    from ..core.flags import by_name

    field = by_name().get(name or "")
    if field is None or not text.startswith(field.en):
        return None
    rest = text[len(field.en):]
    only = _ONLY.match(rest.lstrip())
    out = field.zh
    if only is not None:
        out += " " + _only(only)
        rest = rest.lstrip()[only.end():]
    rest = rest.strip()
    return f"{out}。{zh_text(rest)}" if rest else out


def zh_text(text: str, name: str | None = None) -> str:
    """A help text in Chinese: the catalogue's, or (for a declared flag, `name`) its declaration's."""
    if not text:
        return text
    return translated(text, "zh") or _flag_help(name, text) or text


def _notes(notes: str) -> str:
    """Typer's notes after a help (`[default: yaml; required]`) in Chinese."""
    inner = notes.strip()[1:-1]
    said = []
    for part in inner.split("; "):
        key, sep, value = part.partition(": ")
        if part == "required":
            said.append(N_("required").render("zh"))
        elif sep and key == "default":
            said.append(N_("default: {value}", value=value).render("zh"))
        elif sep and key == "env var":
            said.append(N_("env var: {name}", name=value).render("zh"))
        else:
            said.append(part)
    return f"[{'; '.join(said)}]"


def _zh_record(param: Any, record: tuple[str, str]) -> str:
    """A parameter's help with its notes, in Chinese."""
    own = param.help or ""
    full = record[1]
    notes = full[len(own):] if full.startswith(own) else ""
    text = zh_text(own, param.name)
    if notes.strip():
        text = f"{text}  {_notes(notes)}" if text else _notes(notes)
    return text


def _write_dl(out: list[str], rows: list[tuple[str, str]], width: int, indent: int = 2) -> None:
    first = min(max((cells(a) for a, _ in rows), default=0), COL_MAX) + COL_SPACING
    room = max(width - first - indent, 10)
    for name, text in rows:
        head = " " * indent + name
        if not text:
            out.append(head)
            continue
        lines = wrap(text, room)
        if cells(name) <= first - COL_SPACING:
            out.append(head + " " * (first - cells(name)) + lines[0])
            lines = lines[1:]
        else:
            out.append(head)
        out.extend(" " * (first + indent) + line for line in lines)


def short_help(command: Any) -> str:
    """A command's line in its group's list: the first sentence of its Chinese help."""
    text = zh_text(inspect.cleandoc(command.help or ""))
    first = next(iter(_paragraphs(text)), (False, ""))[1]
    sentence = re.split(r"(?<=。)|(?<=\.)(?=\s)", first, maxsplit=1)[0].rstrip("。.")
    return sentence if cells(sentence) <= 2 * SHORT_LIMIT else wrap(sentence, 2 * SHORT_LIMIT - 3)[0] + "..."


def write_help(command: Any, ctx: Any, formatter: Any) -> None:
    """The whole help of `command` in Chinese, into Click's `formatter`."""
    width = formatter.width or 78
    pieces = " ".join(command.collect_usage_pieces(ctx))
    pieces = pieces.replace("[OPTIONS]", N_("[OPTIONS]").render("zh")).replace("COMMAND [ARGS]...", N_("COMMAND [ARGS]...").render("zh"))
    usage = N_("Usage:").render("zh")
    out = wrap(f"{usage} {ctx.command_path} {pieces}", width)
    if command.help:
        for kept, text in _paragraphs(zh_text(inspect.cleandoc(command.help))):
            out.append("")
            out.extend(("  " + line).rstrip() for line in (text.splitlines() if kept else wrap(text, width - 2)))
    arguments, options = records(command, ctx, _zh_record)
    sections = [(N_("Arguments").render("zh"), arguments), (N_("Options").render("zh"), options)]
    if hasattr(command, "list_commands"):
        listed = [(name, sub) for name in command.list_commands(ctx) if (sub := command.get_command(ctx, name)) is not None and not sub.hidden]
        sections.append((N_("Commands").render("zh"), [(name, short_help(sub)) for name, sub in listed]))
    for title, rows in sections:
        if rows:
            out += ["", f"{title}:"]
            _write_dl(out, rows, width)
    formatter.write("\n".join(out) + "\n")


def help_msgids(root: Any) -> set[str]:
    """Every text the help of the CLI under `root` (`mjcalc`'s command) looks up in the catalogue (bar
    the declared flags' own, which core/flags.py words in both languages), and the words of its layout."""
    import typer

    found = {"[OPTIONS]", "COMMAND [ARGS]...", "Usage:", "Arguments", "Options", "Commands", "[{variants} only]", "required",
             "default: {value}", "env var: {name}"}

    def walk(command: Any, ctx: Any) -> None:
        if command.help:
            found.add(inspect.cleandoc(command.help))
        for param in command.get_params(ctx):
            own = getattr(param, "help", None)
            if own and _flag_help(param.name, own) is None:
                found.add(own)
            elif own:
                from ..core.flags import by_name

                rest = own[len(by_name()[param.name].en):]
                only = _ONLY.match(rest.lstrip())
                rest = (rest.lstrip()[only.end():] if only else rest).strip()
                if rest:
                    found.add(rest)
        if hasattr(command, "list_commands"):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None:
                    walk(sub, typer.Context(sub, parent=ctx, info_name=name))

    walk(root, typer.Context(root, info_name="mjcalc"))
    return found
