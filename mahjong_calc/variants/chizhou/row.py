"""A Chizhou batch row from the kernel's integers: the lean record path's half of build.py.

Every text comes from build.py's own functions (`fan_items`, `flower_item`), made once per
distinct value and kept as JSON; `row` only joins them, so a row is what `result(...).to_json()`
gives. A hand that score.py's checks refuse (no discarder named, the chow restriction) gets
the error those checks raise, from the same functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.context import WinContext
from ...core.errors import InputError
from ...core.hand import Hand
from ...core.result import _item_text
from ...core.shapes import CHOW_CODE, CODE_KINDS, KONG_CODE, _tile_set
from ..common.row import RowAnswer, TextCache, decomposition_json, encode, meld_of
from . import build
from . import kernel as k
from .score import check_chow_restriction, check_context, not_a_winning_hand

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

_texts: Final = TextCache()
_PLACE: Final = {"next": 0, "opposite": 1, "previous": 2}


def row(rs: Ruleset[Any, Any, Any], counts: tuple[int, ...], melds: tuple[int, ...], melds_concealed: tuple[bool, ...], win: int,
        ctx: WinContext) -> RowAnswer:
    """The row's parts of a Chizhou hand, or why it does not win, or the InputError of score.py's checks (its words)."""
    try:
        check_context(ctx)
    except InputError as err:
        return err.with_traceback(None)  # missing_discarder (an answer, not raised: its frames are not kept)
    out = k.score(k.numbers_for(rs), counts, melds, melds_concealed, win, ctx)
    best = out.best
    if out.code == k.NOT_A_WINNING_HAND or best is None:
        return not_a_winning_hand()
    if out.most_flowers < rs.numbers.chow_free_min_flowers and any(CHOW_CODE * 34 <= code < KONG_CODE * 34 for code in melds):
        hand = Hand((), tuple([meld_of(code, conc) for code, conc in zip(melds, melds_concealed)]), win)  # the rule reads the melds only
        try:
            check_chow_restriction(hand, out.most_flowers, rs)
        except InputError as err:
            return err.with_traceback(None)  # chow_restricted
    texts = _texts.of(rs)
    if out.code != k.WIN:
        # what build.refusal reads: the rule's option (of rs), 抢杠, and the reading's 花 against those needed
        refusal_key = ("refusal", ctx.robbing_kong, best.need_kind, best.need, best.flowers)
        refusal = texts.get(refusal_key)
        if refusal is None:
            refusal = texts[refusal_key] = build.refusal(rs, ctx, best)
        return refusal
    fan_key = (best.found, best.product, best.multiplier, best.la_zi)
    fans = texts.get(fan_key)
    if fans is None:
        _, items, names = build.fan_items(rs, best)
        fans = texts[fan_key] = (", ".join([_item_text(one) for one in items]).encode("utf-8"), names, encode(list(names)))
    pair, codes, win_in = out.arrangements[best.arrangement]
    n_concealed = len(codes) - len(melds)
    parts = [fans[0]]
    for index, source in best.sources:
        declared = index >= n_concealed
        concealed = melds_concealed[index - n_concealed] if declared else True
        key = (source, codes[index], declared, concealed)
        text = texts.get(key)
        if text is None:
            code = codes[index]
            text = texts[key] = _item_text(build.flower_item(rs, source, _tile_set(CODE_KINDS[code // 34], code % 34, declared, concealed))).encode("utf-8")
        parts.append(text)
    pays = out.pays
    if out.pay == k.PAY_EACH:
        payments = (pays, pays, pays)
    else:
        assert ctx.discarder is not None
        place = _PLACE[ctx.discarder]
        payments = (pays if place == 0 else 0, pays if place == 1 else 0, pays if place == 2 else 0)
    rest = (f'{decomposition_json(pair, codes, win_in, melds_concealed)}, "flowers": {best.flowers}, '
            f'"flowers_needed": {best.need}, "multiplier": {best.multiplier}')
    return best.value, b", ".join(parts), fans[1], fans[2], payments, rest
