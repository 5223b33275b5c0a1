"""A Wuhu batch row from the kernel's integers: the lean record path's half of build.py.

Every text comes from build.py's own functions (`_item`, `patterns`), made once per distinct
value and kept as JSON; `row` only joins them, so a row is what `result(...).to_json()` gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.context import WinContext
from ...core.result import _item_text
from ...core.shapes import CODE_KINDS, _tile_set, code_arrangement
from ..common.row import TILE_JSON, RowAnswer, TextCache, decomposition_json, encode
from . import build
from . import kernel as k
from .score import not_a_win

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

_texts: Final = TextCache()
_facts: Final[dict[int, tuple[WinContext, tuple[bool, bool, bool, bool, bool, int]]]] = {}


def _facts_of(ctx: WinContext) -> tuple[bool, bool, bool, bool, bool, int]:
    """build.kernel_facts of a WinContext, read once per context (the lean path keeps one per
    combination of flags): compiled code reads a WinContext's attribute, a Python dataclass's,
    through the generic lookup, each time."""
    entry = _facts.get(id(ctx))
    if entry is None or entry[0] is not ctx:
        if len(_facts) >= 4096:
            _facts.clear()
        entry = _facts[id(ctx)] = (ctx, build.kernel_facts(ctx))
    return entry[1]


def _item_json(rs: Ruleset[Any, Any, Any], one: k.KernelItem, arr: tuple[int, tuple[int, ...], int], melds_concealed: tuple[bool, ...], self_draw: bool) -> str:
    """One kernel item's JSON, as build.items() would make the Item."""
    n = len(arr[1]) - len(melds_concealed)
    meld_sets = tuple(_tile_set(CODE_KINDS[c // 34], c % 34, True, conc) for c, conc in zip(arr[1][n:], melds_concealed))
    sets = code_arrangement(meld_sets, *arr).sets
    return _item_text(build._item(rs, one, sets, self_draw))


def row(rs: Ruleset[Any, Any, Any], counts: tuple[int, ...], melds: tuple[int, ...], melds_concealed: tuple[bool, ...], win: int,
        ctx: WinContext) -> RowAnswer:
    """The row's parts of a Wuhu hand, or why it does not win (score.py's words)."""
    self_draw, after_kong, heavenly, earthly, dealer, dealer_seat = _facts_of(ctx)
    out = k.score(k.numbers_for(rs), counts, melds, melds_concealed, win, self_draw, after_kong, heavenly, earthly, dealer, dealer_seat, False, ctx)
    best = out.best
    if out.code == k.NO_BA_ZHI:
        return not_a_win("no_ba_zhi", out.zhi, rs)
    if out.code != k.WIN or best is None:
        return not_a_win("not_a_winning_hand", out.zhi, rs)
    texts = _texts.of(rs)
    arr = out.arrangements[best.arrangement]
    items: list[bytes] = []
    for one in best.items:
        code = one[0]
        if code == k.AN_GANG or code == k.MING_GANG:
            index = one[2]
            key: Any = (one, arr[1][index], melds_concealed[index - (len(arr[1]) - len(melds))])
        else:
            key = (one, self_draw)
        text = texts.get(key)
        if text is None:
            text = texts[key] = _item_json(rs, one, arr, melds_concealed, self_draw).encode("utf-8")
        items.append(text)
    found_key = (best.found, best.jiao)
    found = texts.get(found_key)
    if found is None:
        names = build.patterns(rs, best)
        found = texts[found_key] = (names, encode(list(names)))
    waits = texts.get(out.waits)
    if waits is None:
        waits = texts[out.waits] = "[" + ", ".join([TILE_JSON[t] for t in out.waits]) + "]"
    rest = f'{decomposition_json(arr[0], arr[1], arr[2], melds_concealed)}, "zhi": {out.zhi}, "ya_dang": {best.ya}, "waits": {waits}'
    return best.value, b", ".join(items), found[0], found[1], out.payments, rest
