"""The win situation, declared once: every record field and `score` flag.

`_FIELDS` is the one table (read through `fields()`). Each `Field` says its record name (also
the keyword of `score_hand`), its kind, its help in English and Chinese, its CLI spelling, its
bounds, and which variants (by the ruleset's `scorer:`) accept it. From it come:

- `hand.WinContext`'s facts (checked field for field) and `hand.make_context`, which
  parses each by its kind and applies `clashes()`, `Field.implies` and `Field.needs`,
- the options of `mjcalc score`, `waits` and `game add` (`cli/options.py`),
- the batch record fields, their order in a record key and their type checks (`core/batch_record.py`),
  and so `POST /api/score` and `/api/waits`,
- a game record's hand fields and which of them each winner gives (`Field.game`, game/engine.py),
- record.schema.json (core/flag_docs.py) and game.schema.json (`python -m mahjong_calc.generate`
  writes both), and the flag table of docs/cli.md (`flag_docs.readme_table()`),
- the check that a flag the chosen variant does not use is an error (`check_variant`).

To add a flag: add a `Field` here (with the variants that read it) and the fact to
`hand.WinContext`, read it in a detector of those variants, then run
`python -m mahjong_calc.generate` (record.schema.json, game.schema.json, docs/cli.md).
The table is frozen at import: what other modules derive from it, they derive once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Final, Literal

from .errors import InputError, shown
from .words import N_, Text

Kind = Literal["id", "text", "tile", "seat", "bool", "count", "maybe_count", "melds", "pungs",
               "exposed", "hua", "player", "players"]
# "table": a fact about the other players that only a game record's hand gives (`exposed`, `hua`):
# not a WinContext fact nor a batch field, it goes to the settler's Table
Role = Literal["id", "ruleset", "hand", "flag", "table"]
Spelling = Literal["field", "cli"]
# How a game record (game/engine.py) takes a field: each winner's own (`winners:` entries
# may give it), once for the hand (shared by its winners), into the settlement Table rather
# than the WinContext, or not at all because the game works it out (`game_note` says how).
GameUse = Literal["winner", "hand", "table", "computed"]

SEAT_NAMES: Final[tuple[str, ...]] = ("next", "opposite", "previous")

# 飘财神: seed 002 counts one 飘 per 财神 the winner discards on a 财神吊头 wait and,
# while 飘ing, one per kong ("飘财的人一杠属于一飘, 一飘一翻"). Three 财神 exist
# ("财神有三个") and a hand holds at most four kongs, so no game reaches more than 7.
MAX_PIAO: Final = 7
# A payer's exposed pungs, an exposed kong entered as 2 (docs/rules/pujiang.md): four sets at most.
MAX_PUNGS: Final = 8
# An integer `id` must fit in 64 bits, so that any JSON reader can echo it back.
ID_RANGE: Final = (-(2**63), 2**63 - 1)
# A Pujiang hand's 番: at most 7 飘 plus 财神头, 全碰子, 杠开, 抢杠, 七对 or 真真13 (2) and 三财神.
MAX_FAN: Final = 16


@dataclass(frozen=True)
class Field:
    """One record field; most are also a `score` flag."""

    name: str  # record field and `score_hand` keyword
    kind: Kind
    en: str
    zh: str
    role: Role = "flag"
    cli: tuple[str, ...] = ()  # ("--self-draw", "-s"); () for a record-only field; ("HAND",) for the argument
    metavar: str | None = None
    variants: tuple[str, ...] | None = None  # scorers that accept it; None: every variant
    minimum: int | None = None
    maximum: int | None = None
    example: str | None = None
    implies: tuple[str, ...] = ()  # bool flags this one sets too: --heavenly implies --self-draw
    # for a table field: the scorers whose settler reads it, where the others accept it only for
    # the table's copy check (`exposed`); None: its `variants`
    settled_by: tuple[str, ...] | None = None
    # the pattern keys this flag's own win makes, which already count the self-draw it implies, so a
    # scorer does not double them again for it (Wuhu's 杠后开花 嘴子)
    not_doubled: tuple[str, ...] = ()
    needs: str | None = None  # a field this one means nothing without
    needs_hint: str = ""  # what the message then asks for
    game: GameUse = "winner"
    game_note: str = ""  # for game="computed": why a game record does not give it
    game_en: str | None = None  # its description in game.schema.json, where a game reads it differently
    short: tuple[str, str] | None = None  # (zh, en): a few words for a control on the page; None: zh and en themselves
    on_page: bool = True  # False: the page asks for it its own way, not as a control (the discarder; the others' melds)
    # its JSON Schema in a game record, where not the kind's
    game_schema: Mapping[str, Any] | None = dataclass_field(default=None, hash=False, compare=False)

    @property
    def default(self) -> Any:
        """The value meaning "not given"."""
        return _DEFAULTS.get(self.kind)

    @property
    def argument(self) -> bool:
        return self.cli[:1] == ("HAND",)

    @property
    def spelled(self) -> str:
        """How the CLI user writes it: `--piao`."""
        return self.cli[0] if self.cli else self.name

    def named(self, spelling: Spelling) -> str:
        return self.spelled if spelling == "cli" and self.cli else self.name

    @property
    def in_record(self) -> bool:
        """Whether a batch record (and `POST /api/score`) takes it; a game record takes every field."""
        return self.role != "table"

    @property
    def record_kind(self) -> str:
        """The JSON/YAML type a record must give (core/batch_record.py's type check)."""
        return _RECORD_KINDS.get(self.kind, self.kind)

    def is_set(self, value: Any) -> bool:
        return value is not None and value != self.default


_DEFAULTS: Final[dict[str, Any]] = {"bool": False, "melds": (), "count": 0}  # other kinds: None
_RECORD_KINDS: Final = {"text": "str", "tile": "str", "seat": "str", "count": "int", "maybe_count": "int", "melds": "list"}

_FIELDS: Final[tuple[Field, ...]] = (  # read through fields()
    Field("id", "id", "Echoed back as the result's id (a string, or an integer of at most 64 bits).",
          "原样返回的记录编号", role="id", game="hand"),
    Field("variant", "text", "Shipped ruleset (see `mjcalc variants`). Default wuhu315.",
          "规则 (见 `mjcalc variants`), 默认 wuhu315", role="ruleset", cli=("--variant", "-v"), metavar="NAME",
          example="wuhu315", game="computed", game_note="a game has one variant, in its header"),
    Field("hand", "text", "Concealed tiles including the winning tile, e.g. 123456m13m99p555p2m.",
          "手牌 (含和张), 如 123456m13m99p555p2m", role="hand", cli=("HAND",), example="123456m13m99p555p2m",
          game_en="The winner's concealed tiles including the winning tile."),
    Field("win", "tile", "The winning tile (default: the last tile written).",
          "和张 (默认: 手牌最后一张)", role="hand", cli=("--win", "-w"), metavar="TILE"),
    Field("self_draw", "bool", "Won by self-draw (自摸).", "自摸", cli=("--self-draw", "-s"), game="hand",
          on_page=False),
    Field("dealer", "bool", "The winner is the dealer (庄家).", "和牌者是庄家", cli=("--dealer", "-d"),
          variants=("wuhu",), game="computed", game_note="the game works out who deals each hand"),
    Field("dealer_seat", "seat", "Which payer is the dealer, when the winner is not.",
          "和牌者不是庄家时, 哪一家是庄家", cli=("--dealer-seat",), metavar="SEAT", variants=("wuhu",),
          game="computed", game_note="the game works out who deals each hand"),
    Field("melds", "melds", "An exposed meld: 555p pung, 5555p kong, 123m chow. Repeatable.",
          "明牌 (碰 555p, 杠 5555p, 吃 123m), 可重复", role="hand", cli=("--meld", "-m"), metavar="MELD",
          game_en="The winner's exposed melds, in the order they were made, each with its source. The order is a fact of the "
                  "hand: in Wuhu the first three exposed pungs listed make the 三对 alarm, and the fourth pung, whose feeder "
                  "pays for all three (四对转包), is the one listed last, after them. A kong added to an earlier pung (加杠) "
                  "keeps that pung's place.",
          game_schema={"type": ["array", "null"], "items": {"$ref": "#/$defs/meld"}}),
    Field("concealed_kongs", "melds", "A concealed kong, e.g. 5555p. Repeatable.", "暗杠, 如 5555p, 可重复",
          role="hand", cli=("--concealed-kong", "-k"), metavar="MELD", game_en="Concealed kongs: no source.",
          game_schema={"type": ["array", "null"], "items": {"type": "string", "pattern": "^[^@]+$"}}),
    Field("after_kong", "bool", "Won on a kong replacement tile (杠后开花 / 杠开); implies --self-draw, needs a kong.",
          "杠后开花 (杠开), 算自摸, 须有杠", cli=("--after-kong",), implies=("self_draw",), not_doubled=("gang_hou_kai_hua",),
          short=("杠开", "After kong")),
    Field("robbing_kong", "bool", "Won by robbing a kong (抢杠); --discarder names whose kong.", "抢杠",
          cli=("--robbing-kong",), variants=("chizhou", "pujiang"), short=("抢杠", "Robbing a kong")),
    Field("heavenly", "bool", "Heavenly hand (天胡): the dealer's; implies --self-draw and --dealer.", "天胡 (庄家的, 算自摸)", cli=("--heavenly",),
          variants=("wuhu",), implies=("self_draw", "dealer"), short=("天胡", "Heavenly")),
    Field("earthly", "bool", "Earthly hand (地胡).", "地胡", cli=("--earthly",), variants=("wuhu",), short=("地胡", "Earthly")),
    Field("discarder", "seat", "Who discarded the winning tile (or whose kong was robbed).",
          "放冲的一家 (或被抢杠的一家)", cli=("--discarder", "-f"), metavar="SEAT", game="hand",
          on_page=False),
    Field("wild", "tile", "The wild-tile indicator (财神), e.g. 3m.", "财神牌, 如 3m", cli=("--wild",),
          metavar="TILE", variants=("pujiang",), game_en="The 财神 indicator (Pujiang).", short=("财神", "Wild tile")),
    Field("piao", "count", f"Number of 飘财神 (0 to {MAX_PIAO}).", f"飘财神次数 (0 到 {MAX_PIAO})", cli=("--piao",),
          metavar="N", variants=("pujiang",), minimum=0, maximum=MAX_PIAO, game_en="The winner's 飘财神 (Pujiang).", short=("飘", "Piao")),
    Field("opponent_pungs", "pungs",
          f"Exposed pungs of NEXT,OPPOSITE,PREVIOUS (a kong counts 2), each 0 to {MAX_PUNGS}, e.g. 2,0,1.",
          f"下家, 对家, 上家各碰出几刻 (杠算 2), 各 0 到 {MAX_PUNGS}, 如 2,0,1", cli=("--opponent-pungs",),
          metavar="N,N,N", variants=("pujiang",), minimum=0, maximum=MAX_PUNGS, on_page=False,
          game_en="Payers' exposed pungs (Pujiang): NEXT,OPPOSITE,PREVIOUS as in batch, or {player: count}; by default counted from exposed.",
          game_schema={"oneOf": [
              {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 3, "maxItems": 3},
              {"type": "string", "pattern": "^\\s*\\d+\\s*,\\s*\\d+\\s*,\\s*\\d+\\s*$"},
              {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
              {"type": "null"},
          ]}),
    # a maybe_count is absent (None) unless given: 0 番 is a real answer, and must not be assumed
    Field("robbed_fan", "maybe_count",
          f"抢杠: the 番 of the robbed player's own hand (0 to {MAX_FAN}), for options.qiang_gang_amount.",
          f"抢杠: 被抢的人手里的牌翻数 (0 到 {MAX_FAN}), 用于 options.qiang_gang_amount", cli=("--robbed-fan",),
          metavar="N", variants=("pujiang",), minimum=0, maximum=MAX_FAN, game="hand", short=("被抢杠番", "Robbed kong's value")),
    Field("exposed", "exposed", "Other players' exposed melds with sources: {player: [meld@source]}.",
          "其他各家的明牌及来源 {玩家: [牌@来源]}", role="table", settled_by=("chizhou", "pujiang"), game="table",
          game_schema={"type": ["object", "null"], "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/meld"}}}),
    # another player's 飘 round limits the others' wins (seed 002 保飘); see variants/pujiang/liability.py
    Field("piao_by", "seat", "The seat in a 飘 round (its limits apply to this win; with --piao-count).",
          "正在飘财的一家 (其飘数限制此和牌)", cli=("--piao-by",), metavar="SEAT", variants=("pujiang",), game="table",
          game_en="Pujiang: the player in a 飘 round."),
    Field("piao_count", "count", f"How many 飘 that seat has made (0 to {MAX_PIAO}).",
          f"该家已飘次数 (0 到 {MAX_PIAO})", cli=("--piao-count",), metavar="N", variants=("pujiang",),
          minimum=0, maximum=MAX_PIAO, needs="piao_by", needs_hint="name the seat in the 飘 round", game="table",
          game_en="Pujiang: how many 飘 piao_by has made."),
    # the other players' facts, which only a game record gives (into the settler's Table)
    Field("sheng_zhang", "player", "Pujiang: who discarded a tile not yet seen on the table (生张) during the 飘 round.",
          "飘财期间打出生张的一家", role="table", variants=("pujiang",), needs="piao_by", needs_hint="name the player in the 飘 round",
          game="table", game_schema={"$ref": "#/$defs/player"}),
    Field("hua", "hua", "Chizhou: other players' 花 (default: counted from their exposed melds).", "其他各家的花 (默认按其明牌计)",
          role="table", variants=("chizhou",), game="table",
          game_schema={"type": ["object", "null"], "additionalProperties": {"type": "integer", "minimum": 0}}),
    Field("la_zi", "players", "Chizhou: other players whose own hand is at 拉子.", "手牌已到拉子的其他各家", role="table",
          variants=("chizhou",), game="table", game_schema={"type": ["array", "null"], "items": {"$ref": "#/$defs/player"}}),
)

# Pairs of flags that cannot describe one win, checked in this order (so that a record with
# several clashes always names the same one): the first flag, and the flags it clashes with
# (any one of them set is the clash; the message names them all, joined by "/"). What a flag
# `implies` reaches them too, checked after these: a flag implying self_draw clashes with
# --discarder with no line of its own, and the message names the flag given.
_CLASHES: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (  # read through clashes()
    ("heavenly", ("earthly",)),
    ("self_draw", ("discarder",)),
    ("robbing_kong", ("self_draw",)),
    ("robbing_kong", ("after_kong",)),
    ("robbing_kong", ("heavenly", "earthly")),
    # `implies` alone refuses these two (after the lines above and below); written out, they keep
    # the clash a record with two clashes names where it was (before --dealer/--dealer-seat)
    ("after_kong", ("discarder",)),
    ("heavenly", ("discarder",)),
    ("dealer", ("dealer_seat",)),
)

# Scorers without discard wins (点炮, 冲): a win is a self-draw, or 抢杠 where `robbing_kong` is
# theirs (Pujiang, seed 002: 只能自摸). Messages about how a win was won follow from it.
SELF_DRAW_ONLY: Final[tuple[str, ...]] = ("pujiang",)

def fields() -> tuple[Field, ...]:
    """Every declared field, in table order."""
    return _FIELDS


def clashes() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The declared clashes, in the order they are checked."""
    return _CLASHES


_BY_NAME: Final[dict[str, Field]] = {f.name: f for f in _FIELDS}
_KEY_FIELDS: Final[tuple[str, ...]] = tuple(f.name for f in _FIELDS if f.role != "id" and f.in_record)
_WIN_FLAGS: Final[tuple[Field, ...]] = tuple(f for f in _FIELDS if f.role == "flag")


def by_name() -> dict[str, Field]:
    """Each declared field by its name."""
    return _BY_NAME


def key_fields() -> tuple[str, ...]:
    """A batch record key's fields, in order."""
    return _KEY_FIELDS


def win_flags() -> tuple[Field, ...]:
    """The fields that are WinContext facts."""
    return _WIN_FLAGS


def _spellings() -> tuple[dict[str, str], re.Pattern[str], dict[str, str], re.Pattern[str]]:
    """How a message spells each field as the CLI does: the long options, then `-k`, `-m`, ... and HAND."""
    long_names = {f.cli[0]: f.name for f in _FIELDS if f.cli and f.cli[0].startswith("--")}
    # longest first, so that --dealer-seat is never read as --dealer
    long_flag = re.compile("(?:" + "|".join(re.escape(s) for s in sorted(long_names, key=len, reverse=True)) + r")(?![\w-])")
    # never inside a word or a tile
    short_names = {spelling: f.name for f in _FIELDS for spelling in f.cli if spelling == "HAND" or not spelling.startswith("--")}
    short_flag = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(s) for s in short_names) + r")(?![\w-])")
    return long_names, long_flag, short_names, short_flag


_SPELLINGS: Final = _spellings()


# --- values ---------------------------------------------------------------------------------


def parse_count(value: int | str, field: Field, spelling: Spelling = "cli") -> int:
    """A bounded whole number (`--piao`), from an int or from the CLI's text."""
    lo, hi = field.minimum or 0, field.maximum
    if type(value) is int and lo <= value and (hi is None or value <= hi):  # the usual case, first
        return value
    number: int | None = None
    given: object = value  # a record's value may be a bool; mypyc trusts the annotation, so test an object
    if isinstance(given, int) and not isinstance(given, bool):
        number = given
    elif isinstance(value, str) and re.fullmatch(r" *[+-]?[0-9]{1,9} *", value):
        number = int(value)
    if number is None or number < lo or (hi is not None and number > hi):
        raise InputError(f"bad_{field.name}", "{flag} must be a whole number from {low} to {high}, not {value}",
                         flag=field.named(spelling), low=lo, high=hi, value=shown(value))
    return number


_PUNGS: Final = re.compile(r" *([0-9]) *, *([0-9]) *, *([0-9]) *")


def parse_pungs(value: Iterable[int] | str, spelling: Spelling = "cli") -> tuple[int, int, int]:
    """'2,0,1' or [2, 0, 1] (next, opposite, previous) → (2, 0, 1), each 0..MAX_PUNGS."""
    field = by_name()["opponent_pungs"]
    numbers: tuple[int, ...] = ()
    if isinstance(value, str):
        match = _PUNGS.fullmatch(value)
        numbers = tuple(int(n) for n in match.groups()) if match else ()
    else:
        items: list[object] = list(value)  # object: what a record holds is not yet known to be int (and mypyc trusts types)
        if all(isinstance(n, int) and not isinstance(n, bool) for n in items):
            numbers = tuple(n for n in items if isinstance(n, int))
    if len(numbers) != 3 or not all(0 <= n <= MAX_PUNGS for n in numbers):
        raise InputError(
            "bad_opponent_pungs",
            "{flag} takes three counts NEXT,OPPOSITE,PREVIOUS from 0 to {high} such as 2,0,1, not {value}",
            flag=field.named(spelling), high=MAX_PUNGS, value=shown(value),
        )
    return numbers


def in_field_words(message: str) -> str:
    """A library message in a record's words: `--discarder` → `discarder`, `--meld` → `melds`.

    The scorers name flags as the CLI spells them; a batch record has fields, so its
    error rows say `discarder`, not `--discarder`.
    """
    long_names, long_flag, short_names, short_flag = _SPELLINGS
    message = long_flag.sub(lambda m: long_names[m.group(0)], message)
    return short_flag.sub(lambda m: short_names[m.group(0)], message)


def check_variant(values: Mapping[str, Any], scorer: str, ruleset_name: str, spelling: Spelling = "field") -> None:
    """A flag that the chosen variant does not use is an error (`flag_not_in_variant`), never ignored."""
    declared = by_name()
    for name, value in values.items():
        field = declared[name]
        if field.variants is not None and scorer not in field.variants and field.is_set(value):
            raise InputError(
                "flag_not_in_variant",
                "{flag} does not apply to {ruleset} (scorer {scorer}); it is taken by: {variants}",
                flag=field.named(spelling), ruleset=ruleset_name, scorer=scorer, variants=", ".join(field.variants),
            )


def win_ways(scorer: str) -> Text:
    """How a win of this variant names the way it was won, in record fields: for a message
    about a win that gives neither self_draw nor discarder."""
    robbing = scorer in (by_name()["robbing_kong"].variants or (scorer,))
    if scorer in SELF_DRAW_ONLY:
        if robbing:
            return N_("{scorer} has no discard wins: a win is a self-draw (self_draw: true) or 抢杠 (robbing_kong: true, "
                      "with discarder the player whose kong was robbed)", scorer=scorer)
        return N_("{scorer} has no discard wins: a win is a self-draw (self_draw: true)", scorer=scorer)
    if robbing:
        return N_("a discard win needs discarder, who discarded the winning tile (or, for 抢杠, whose kong was robbed); or give self_draw: true")
    return N_("a discard win needs discarder, who discarded the winning tile; or give self_draw: true")
