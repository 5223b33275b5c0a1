"""When `mjcalc batch` may use the compiled Wuhu scorer, and what it is built from.

`_wuhu_accel` (C, optional at install) mirrors `variants/wuhu/score.py` step by step and
writes the same JSON text. The Python scorer stays the reference: the compiled one
answers only well-formed, plainly written Wuhu hands, and returns None ("decline")
for everything else, which then takes the Python path, errors included. Its rules
come from the same validated Ruleset: numbers, options, labels and the pattern list
are packed into a `Plan` here, once per ruleset. A ruleset that lists a pattern
with no compiled detector, or turns on an option of PYTHON_ONLY_OPTIONS, gets no plan.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

from .core.errors import MjcalcError
from .core.flags import BY_NAME
from .core.records import KEY_FIELDS
from .core.tiles import NUM_TILES
from .rules.loader import load_ruleset
from .rules.ruleset import Ruleset
from .rules.schema import tile_in_variant
from .variants.wuhu.score import factor_of

try:
    from . import _wuhu_accel
except ImportError:  # installed without a C compiler: the Python scorer does everything
    _wuhu_accel = None  # type: ignore[assignment]

FIXED_LABELS = ("di_fan", "zhi_fan", "ming_gang", "an_gang", "dealer", "jiao", "jiao_self_draw")
DI_FAN = ("discard", "discard_ya_dang", "self_draw", "self_draw_ya_dang")
AMOUNTS = ("zui_zi", "zui_zi_self_draw_multiplier", "jiao", "jiao_extra_zui_zi", "jiao_self_draw", "ming_gang", "an_gang")
OPTIONS = (
    "ya_dang_edge_wait",
    "si_he_exposed_pung",
    "shuang_ba_zhi_kongs_same_suit",
    "gang_hou_ya_dang_jiao",
    "jiao_count_each_source",
    "dealer_payer_extra",
    "ya_dang_single_wait",
    "hun_yi_se_self_draw_jiao",
    "jiao_self_draw_after_kong",
    "tong_tian_overlapping",
)
# Options the compiled scorer does not implement (it is being retired, so it will not learn them):
# a ruleset with any of them on gets no Plan, and its records take the Python path.
PYTHON_ONLY_OPTIONS = ("gang_hou_du_diao_jiao", "si_he_three_extra")


def available() -> bool:
    """Whether the extension was built (by this version: it names the FIELDS it reads) and
    is not turned off with MJCALC_NO_ACCEL=1 (to compare, or to rule it out)."""
    if _wuhu_accel is None or os.environ.get("MJCALC_NO_ACCEL"):
        return False
    return hasattr(_wuhu_accel, "FIELDS")


def key_layout(reads: tuple[str, ...], key_fields: tuple[str, ...] = KEY_FIELDS) -> tuple[int, tuple[int, ...], tuple[tuple[int, Any], ...]]:
    """What a Plan is told of the record key: its length, where each field it reads sits,
    and (index, default) of every other hand input or flag, which it declines unless absent.

    So a flag added to flags.FIELDS is declined by the compiled scorer until it learns it,
    instead of turning the compiled scorer off. A field it reads that the table no longer
    declares is a bug, and fails loudly here.
    """
    missing = [name for name in reads if name not in key_fields]
    if missing:
        raise RuntimeError(f"the compiled Wuhu scorer reads {missing}, which mahjong_calc/core/flags.py does not declare")
    field_at = tuple(key_fields.index(name) for name in reads)
    absent = tuple(
        (i, BY_NAME[name].default)
        for i, name in enumerate(key_fields)
        if name not in reads and BY_NAME[name].role in ("hand", "flag")
    )
    return len(key_fields), field_at, absent


def status() -> str:
    """One line for `mjcalc --version`: whether the compiled scorer is on, and if not, why."""
    if _wuhu_accel is None:
        return "compiled scorer: off (not built: no C compiler at install time)"
    if os.environ.get("MJCALC_NO_ACCEL"):
        return "compiled scorer: off (MJCALC_NO_ACCEL is set)"
    return "compiled scorer: on" if available() else "compiled scorer: off (built for another version; reinstall)"


def _text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _item_head(rs: Ruleset[Any, Any, Any], key: str) -> str:
    """An item's JSON up to its value, as `Item.to_dict()` and json.dumps write it."""
    zh, en = rs.label(key)
    return f'{{"key": {_text(key)}, "zh": {_text(zh)}, "en": {_text(en)}, "value": '


def compile_plan(rs: Ruleset[Any, Any, Any]) -> Any | None:
    """The compiled form of a Wuhu ruleset, or None where only the Python scorer applies."""
    if not available() or rs.scorer != "wuhu":
        return None
    if any(getattr(rs.options, k) for k in PYTHON_ONLY_OPTIONS):
        return None
    allowed = bytes(tile_in_variant(t, rs.tiles) for t in range(NUM_TILES))
    num, opt = rs.numbers, rs.options
    factors = [factor_of(num.zhi_factor.discard), factor_of(num.zhi_factor.self_draw)]
    numbers = (
        num.min_zhi,
        *(getattr(num.di_fan, k) for k in DI_FAN),
        *factors[0].as_integer_ratio(),
        *factors[1].as_integer_ratio(),
        *(getattr(num, k) for k in AMOUNTS),
        *(int(bool(getattr(opt, k))) for k in OPTIONS),
    )
    prefix = (
        f'"variant": {_text(rs.name)}, "ruleset_version": {_text(rs.version)}, '
        '"valid": true, "hand": {"concealed": "'
    )
    patterns = tuple(
        (key, spec.role == "jiao", _item_head(rs, key), _text(rs.label(key)[0])[1:-1])
        for key, spec in rs.patterns.items()
    )
    layout = key_layout(tuple(_wuhu_accel.FIELDS))
    try:
        return _wuhu_accel.Plan(
            allowed,
            numbers,
            tuple(str(f) for f in factors),
            prefix,
            tuple(_item_head(rs, key) for key in FIXED_LABELS),
            patterns,
            *layout,
        )
    except (ValueError, TypeError, OverflowError):  # e.g. a negative amount, or a pattern it lacks
        return None


@lru_cache(maxsize=64)
def plan_for(variant: str) -> tuple[Ruleset[Any, Any, Any], Any] | None:
    """(ruleset, plan) for a shipped variant name, or None."""
    try:
        rs = load_ruleset(variant)
    except MjcalcError:
        return None
    plan = compile_plan(rs)
    return None if plan is None else (rs, plan)
