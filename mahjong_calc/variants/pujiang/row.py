"""A Pujiang batch row from the kernel's integers: the lean record path's half of build.py.

Every text comes from build.py's own functions (`base_item`, `zi_item`, `fan_items`,
`face_items`, `pattern_keys`, `wild_rows`, `decomposition`), made once per distinct value of
what it reads and kept as JSON; `row` only joins them, so a row is what `result(...).to_json()`
gives. The decomposition of 真13 and 三财神 is the tiles held, so build.shape makes it each time.
A hand that score.py's checks refuse gets the error those checks raise, and one that does not
win build.refusal's NotAWin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.context import WinContext
from ...core.errors import InputError, NotAWin
from ...core.hand import hand_of_counts
from ...core.result import _item_text
from ...core.shapes import CHOW_CODE, CODE_KINDS, KONG_CODE, _tile_set
from ..common.read import QI_DUI, SHAPE_NAMES, STANDARD
from ..common.row import TILE_JSON, RowAnswer, TextCache, decomposition_json, encode, meld_of
from . import build
from . import kernel as k
from .score import check_wilds_held, check_win_facts

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

_texts: Final = TextCache()
# (ruleset, WinContext, wilds held) -> what score.py's checks of them raise (None: they pass). A
# batch holds few distinct WinContexts (api/row.py makes one per combination of flags): found by
# identity, each kept beside its answer, so that a new object at a reused id is never mistaken.
_checked: Final[dict[tuple[int, int, int], tuple[Any, WinContext, NotAWin | InputError | None]]] = {}
_OPEN: Final = '"decomposition": {'
_STANDARD: Final = f'{_OPEN}"shape": {encode(SHAPE_NAMES[STANDARD])}, '


def _items(texts: dict[Any, Any], key: Any, made: Any) -> bytes:
    """The items' JSON (joined by ", ", UTF-8) kept under `key`, made by `made()` (a list of Items) the first time."""
    text = texts.get(key)
    if text is None:
        text = texts[key] = ", ".join([_item_text(one) for one in made()]).encode("utf-8")
    return bytes(text)


def _wilds_held(wild: int, counts: tuple[int, ...], melds: tuple[int, ...]) -> int:
    """Copies of the wild held, melds included (hand_counts of the hand, at the wild)."""
    held = counts[wild]
    for code in melds:
        first = code % 34
        if CHOW_CODE * 34 <= code < KONG_CODE * 34:
            if first <= wild <= first + 2:
                held += 1
        elif first == wild:
            held += 4 if code >= KONG_CODE * 34 else 3
    return held


def _refused(rs: Ruleset[Any, Any, Any], ctx: WinContext, wilds: int) -> NotAWin | InputError | None:
    """What score.check_win_kind raises for these facts and `wilds` copies of the wild held (-1: no wild),
    or None; worked out once per ruleset, WinContext and count."""
    key = (id(rs), id(ctx), wilds)
    entry = _checked.get(key)
    if entry is not None and entry[0] is rs and entry[1] is ctx:
        return entry[2]
    refused: NotAWin | InputError | None = None
    try:
        check_win_facts(ctx, rs)
        check_wilds_held(wilds, ctx, rs)
    except (NotAWin, InputError) as err:
        refused = err.with_traceback(None)  # kept: its traceback would keep the frames of that call (and the game they hold) alive
    if len(_checked) >= 1024:
        _checked.clear()
    _checked[key] = (rs, ctx, refused)
    return refused


def row(rs: Ruleset[Any, Any, Any], counts: tuple[int, ...], melds: tuple[int, ...], melds_concealed: tuple[bool, ...], win: int,
        ctx: WinContext) -> RowAnswer:
    """The row's parts of a Pujiang hand, or why it does not win, or the InputError of score.py's checks."""
    made = tuple([meld_of(code, conc) for code, conc in zip(melds, melds_concealed)])
    wild = ctx.wild
    refused = _refused(rs, ctx, -1 if wild is None else _wilds_held(wild, counts, melds))
    if refused is not None:
        return refused
    out = k.score(k.numbers_for(rs), counts, melds, melds_concealed, win, ctx)
    best = out.best
    texts = _texts.of(rs)
    if out.code != k.WIN or best is None:
        # what build.refusal reads: the refusal, and the pungs of one refused for too few
        code = k.NOT_A_WINNING_HAND if best is None else best.refusal
        refusal_key = ("refusal", code, best.pungs if best is not None and code == k.NEEDS_THREE_PUNGS else 0)
        refusal = texts.get(refusal_key)
        if refusal is None:
            refusal = texts[refusal_key] = build.refusal(rs, best)
        return refusal
    any_face = wild if wild is not None else 0
    wild_faces: tuple[int | None, ...] = best.faces
    decomposition = ""
    if best.shape != STANDARD and best.shape != QI_DUI:  # 真13 or 三财神
        seen = build.shape(hand_of_counts(counts, made, win), ctx, out, best)
        wild_faces = seen.wild_faces
        decomposition = '"decomposition": ' + encode(build.decomposition(seen))
    # value_detail reads these facts of the win, and the reading's base, 子, 番 and patterns
    first = ("base", best.base, best.zi, best.fan, best.found, ctx.robbing_kong, ctx.discarder, ctx.robbed_fan, ctx.opponent_pungs)
    parts = [_items(texts, first, lambda: [build.base_item(ctx, rs, best)])]
    codes: tuple[int, ...] = build.concealed_codes(best, any_face) if best.shape == STANDARD else ()
    n = len(codes)
    for i, code in enumerate(codes + melds):  # the sets' 子: the concealed sets', then the melds' (三财神 may have melds)
        declared = i >= n
        conc = melds_concealed[i - n] if declared else True
        key = ("set", code, declared, conc)
        text = texts.get(key)
        if text is None:
            one = build.zi_item(rs, _tile_set(CODE_KINDS[code // 34], code % 34, declared, conc))
            text = texts[key] = b"" if one is None else _item_text(one).encode("utf-8")
        if text:
            parts.append(text)
    fans = _items(texts, ("fan", best.found, best.qiang_gang, out.jokers > 0), lambda: build.fan_items(rs, out.jokers, best))
    if fans:
        parts.append(fans)
    whites = build.white_faces(ctx, out, best)
    faces_key = ("faces", wild, wild_faces, whites)
    faces = texts.get(faces_key)
    if faces is None:
        items = ", ".join([_item_text(one) for one in build.face_items(rs, wild, wild_faces, whites)]).encode("utf-8")
        faces = texts[faces_key] = (items, encode(build.wild_rows(wild_faces, whites, wild)))
    if faces[0]:
        parts.append(faces[0])
    found_key = ("patterns", best.found, best.qiang_gang)
    found = texts.get(found_key)
    if found is None:
        names = build.pattern_keys(rs, best)
        found = texts[found_key] = (names, encode(list(names)))
    if best.shape == STANDARD:
        decomposition = _STANDARD + decomposition_json(build.group_first(best.pair, any_face), codes + melds, best.win_in,
                                                       melds_concealed)[len(_OPEN):]
    elif best.shape == QI_DUI:
        seven_key = ("qi_dui", best.pairs, wild, best.faces, whites)
        seven = texts.get(seven_key)
        if seven is None:
            seven = texts[seven_key] = '"decomposition": ' + encode(build.decomposition(build.shape(hand_of_counts(counts, made, win), ctx, out, best)))
        decomposition = str(seven)
    wild_json = "null" if wild is None else TILE_JSON[wild]
    rest = f'{decomposition}, "zi": {best.zi}, "fan": {best.fan}, "wild": {wild_json}, "wilds": {faces[1]}'
    return best.value, b", ".join(parts), found[0], found[1], out.payments, rest
