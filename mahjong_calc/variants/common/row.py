"""The pieces of a batch row that every variant's row scorer shares: set and tile texts as JSON,
made once, and the decomposition of a kernel's arrangement.

A row scorer (`variants/<v>/row.py`) gives the lean record path (api/row.py) the JSON that the
variant's ScoreResult would have, from the kernel's integers and these cached texts;
tests/test_row.py holds the two paths to the same bytes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from ...core.errors import InputError, NotAWin
from ...core.hand import Meld
from ...core.language import language
from ...core.shapes import CODE_KINDS, _pair_text, _tile_set
from ...core.tiles import NUM_TILES, tile_str

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

encode: Final = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(value, ensure_ascii=False), as ScoreResult.to_json

# A row scorer's answer: (value, the items' JSON joined by ", " as UTF-8, the patterns, their JSON, the
# payments next/opposite/previous, the JSON from "decomposition" on without the closing brace). The
# items are the row's Chinese: kept encoded, so that the rest of a row is ASCII text, encoded in a copy.
RowParts = tuple[int, bytes, tuple[str, ...], str, tuple[int, int, int], str]
# What a row scorer answers: the parts, the NotAWin or the InputError the variant's scorer would
# raise (not raised), or None where the full path must answer.
RowAnswer = RowParts | NotAWin | InputError | None

N_CODES: Final = 3 * 34  # set codes: kind * 34 + first tile
TILE_JSON: Final[tuple[str, ...]] = tuple(encode(tile_str(t)) for t in range(NUM_TILES))
PAIR_JSON: Final[tuple[str, ...]] = tuple(encode(_pair_text(t)) for t in range(NUM_TILES))
# a concealed set's notation (index: its code), then a declared one's (code + N_CODES: exposed,
# code + 2 * N_CODES: a concealed kong), as JSON; a code that names no real set is never asked for
SET_JSON: Final[tuple[str, ...]] = tuple(
    encode(_tile_set(CODE_KINDS[code // 34], code % 34, declared, concealed).notation()) if code % 34 <= (26 if code // 34 == 1 else 33) else ""
    for declared, concealed in ((False, True), (True, False), (True, True))
    for code in range(N_CODES)
)


_MELDS: Final[dict[tuple[int, bool], Meld]] = {}


def meld_of(code: int, concealed: bool) -> Meld:
    """The Meld of a set code, as core.hand.parse_meld makes it (one per code and flag)."""
    meld = _MELDS.get((code, concealed))
    if meld is None:
        kind, first = CODE_KINDS[code // 34], code % 34
        tiles = (first, first + 1, first + 2) if kind == "chow" else (first,) * (4 if kind == "kong" else 3)
        meld = _MELDS[(code, concealed)] = Meld(kind, tiles, concealed)
    return meld


def decomposition_json(pair: int, codes: tuple[int, ...], win_in: int, melds_concealed: tuple[bool, ...]) -> str:
    """`"decomposition": {...}` of a kernel's arrangement, as Arrangement.to_dict() encodes it."""
    n = len(codes) - len(melds_concealed)
    sets = [SET_JSON[codes[i]] for i in range(n)]
    for i in range(len(melds_concealed)):
        sets.append(SET_JSON[codes[n + i] + (2 * N_CODES if melds_concealed[i] else N_CODES)])
    where = '"pair"' if win_in < 0 else sets[win_in]
    return f'"decomposition": {{"pair": {PAIR_JSON[pair]}, "sets": [{", ".join(sets)}], "win_in": {where}}}'


class TextCache:
    """Texts of one ruleset in one language (an item's JSON, a pattern list's), each made once per distinct key.

    Found by the ruleset's identity and the language chosen (core/words), the ruleset kept beside
    it (as PerRuleset does); a cache that grows past `KEPT` entries starts afresh.
    """

    KEPT = 65536

    def __init__(self) -> None:
        self._made: dict[tuple[int, str | None], tuple[Ruleset[Any, Any, Any], dict[Any, Any]]] = {}

    def of(self, rs: Ruleset[Any, Any, Any]) -> dict[Any, Any]:
        key = (id(rs), language())
        entry = self._made.get(key)
        if entry is None or entry[0] is not rs or len(entry[1]) > self.KEPT:
            if len(self._made) >= 256:
                self._made.clear()
            entry = self._made[key] = (rs, {})
        return entry[1]
