"""What each ruleset key means: the data behind `mjcalc options VARIANT`.

`KEYS` describes every number, option and tile switch a variant's rulesets have, in
Chinese and English, with the section of `docs/rules/<variant>.md` that records the
reading and its seed line. Pattern entries, labels and titles are names and
amounts whose meaning follows from the field (`ENTRY_FIELD_DOCS`). `tests/test_options.py`
checks this table against the shipped rulesets and the docs, both ways.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

DOCS = {"wuhu": "docs/rules/wuhu.md", "chizhou": "docs/rules/chizhou.md", "pujiang": "docs/rules/pujiang.md"}

# (zh, en, docs section: the start of a `## ` heading in DOCS[scorer])
Doc = tuple[str, str, str]

_TILES_W = "Tiles, calls and payment"
_WIN_W = "Winning"
_AMOUNTS_W = "Amounts when the hand is not 交"
_JIAO_W = "交 (the limit payment)"

# `settlement:` keys every variant's game has (schema.GameRules)
_LIAB = "Liability and settlement"
_SETTLEMENT_COMMON: dict[str, Doc] = {
    "settlement.dealer_after_win": ("和牌后谁坐庄", "who deals next after a win", _LIAB),
    "settlement.dealer_after_draw": ("流局后谁坐庄", "who deals next after a drawn hand (流局)", _LIAB),
    "settlement.multiple_winners": ("一炮多响", "one discard may make several winners (一炮多响)", _LIAB),
    "settlement.chips": ("每人起始子数 (0 = 不记子)", "子 (chips) each player starts with (0: no 子 ledger)", _LIAB),
}

KEYS: dict[str, dict[str, Doc]] = {
    "wuhu": {
        "tiles.suits": ("用哪几门数牌", "the suits played (m 万, p 筒, s 条)", _TILES_W),
        "tiles.honours": ("用哪些字牌 (7 = 红中)", "the honours played (7 = 红中, the red dragon)", _TILES_W),
        "tiles.chow_melds": ("可否吃牌", "whether chow melds (吃) are allowed", _TILES_W),
        "numbers.min_zhi": ("八支: 一门至少几张才能和", "tiles of one suit needed to win (八支)", _WIN_W),
        "numbers.di_fan.discard": ("底番: 点炮", "底番 (base) of a discard win", _AMOUNTS_W),
        "numbers.di_fan.discard_ya_dang": ("底番: 点炮压档", "底番 of a discard win with 压档", _AMOUNTS_W),
        "numbers.di_fan.self_draw": ("底番: 自摸", "底番 of a self-drawn win", _AMOUNTS_W),
        "numbers.di_fan.self_draw_ya_dang": ("底番: 自摸压档", "底番 of a self-drawn win with 压档", _AMOUNTS_W),
        "numbers.zhi_factor.discard": ("支番 = (支 + 压档) × 此数, 点炮", "支番 = (支 + 压档) × this, discard win", _AMOUNTS_W),
        "numbers.zhi_factor.self_draw": ("支番 = (支 + 压档) × 此数, 自摸", "支番 = (支 + 压档) × this, self-draw", _AMOUNTS_W),
        "numbers.zui_zi": ("每个嘴子的番数", "番 of each 嘴子 (scoring feature)", _AMOUNTS_W),
        "numbers.zui_zi_self_draw_multiplier": ("嘴子自摸翻倍 (杠后开花除外)", "嘴子 multiplier on a self-draw (not 杠后开花)", _AMOUNTS_W),
        "numbers.jiao": ("一交的番数", "番 of one 交 (limit payment)", _JIAO_W),
        "numbers.jiao_extra_zui_zi": ("交以外每个嘴子再加", "each 嘴子 beyond those that made the 交", _JIAO_W),
        "numbers.jiao_self_draw": ("有交时自摸再加", "added to a 交 won by self-draw", _JIAO_W),
        "numbers.ming_gang": ("明杠的番数", "番 of an exposed kong (明杠)", _AMOUNTS_W),
        "numbers.an_gang": ("暗杠的番数", "番 of a concealed kong (暗杠)", _AMOUNTS_W),
        "options.ya_dang_edge_wait": ("边张 (12等3, 89等7) 也算压档", "an edge wait (12→3, 89→7) counts as 压档", "压档"),
        "options.si_he_exposed_pung": ("四核的刻子可以碰在外", "四核's pung may be an exposed pung", "嘴子"),
        "options.shuang_ba_zhi_kongs_same_suit": ("双八支的两杠须同一门", "双八支's two kongs must share one suit", _JIAO_W),
        "options.gang_hou_ya_dang_jiao": ("杠后开花又压档算交", "杠后开花 with 压档 is paid as 交", _JIAO_W),
        "options.jiao_count_each_source": ("每个交源各算一交", "one 交 per source instead of one per hand", _JIAO_W),
        "options.dealer_payer_extra": ("付钱的庄家多付一个底番", "a paying dealer (--dealer-seat) adds one 底番", _AMOUNTS_W),
        "options.ya_dang_single_wait": ("压档须单听那一张", "压档 needs the 13 tiles to wait on that one tile", "压档"),
        "options.hun_yi_se_self_draw_jiao": ("自摸混一色算交", "a self-drawn 混一色 is paid as 交", "压档"),
        "options.jiao_self_draw_after_kong": ("杠开也加交的自摸分", "the 交 self-draw bonus applies to a win after a kong too", "嘴子"),
        "options.tong_tian_overlapping": ("通天可用重叠的顺子 (123 345 567 789)", "通天 may use overlapping sequences covering 1-9", "嘴子"),
        "options.gang_hou_du_diao_jiao": ("杠后开花独吊 (单钓将) 也算交", "杠后开花 won on a single wait on the pair (独吊) is paid as 交", _JIAO_W),
        "options.si_he_three_extra": ("三个四核: 双四核再加一个四核嘴子", "three 四核 tiles: 双四核 plus one more 四核 as a 嘴子 beyond the 交", _JIAO_W),
        **_SETTLEMENT_COMMON,
        "settlement.jiao_chips": ("交是否扣子 (score_only: 只算输赢分)", "whether a 交 moves the 子 too (score_only: the score only)", _LIAB),
        "settlement.liability_needs_jiao": ("是交才包", "liability (包) only when the win is 交", _LIAB),
        "settlement.san_dui_bao_pai": ("三对包牌", "三对包牌: the feeder of three exposed pungs of a suit pays", _LIAB),
        "settlement.san_dui_bao_on_self_draw": ("三对包牌自摸也包", "三对包牌 applies on a self-draw too", _LIAB),
        "settlement.si_dui_zhuan_bao": ("四对转包", "四对转包: the feeder of the fourth pung takes the liability over", _LIAB),
        "settlement.shuang_ba_zhi_bao": ("双八支报警后点炮者包", "双八支 after a warning: the discarder pays", _LIAB),
        "settlement.shuang_si_he_bao": ("双四核报警后顶嘴子者包", "双四核 after a warning: the key-tile discarder pays", _LIAB),
    },
    "chizhou": {
        "tiles.suits": ("用哪几门数牌", "the suits played (m 万, p 筒, s 条)", "Tiles and calls"),
        "tiles.honours": ("用哪些字牌 (1-7 = 东南西北白发中)", "the honours played (1-7 = E S W N, white, green, red)", "Tiles and calls"),
        "tiles.chow_melds": ("可否吃牌", "whether chow melds (吃) are allowed", "Tiles and calls"),
        "numbers.base": ("底", "the base (底) the fans multiply", "Patterns and the multiplier"),
        "numbers.cap": ("封顶番数 (到顶为拉子)", "the cap on the product of fans (a capped hand is 拉子)", "Patterns and the multiplier"),
        "numbers.min_flowers.self_draw": ("自摸至少几花", "花 needed to win by self-draw", "Win thresholds"),
        "numbers.min_flowers.discard": ("冲 (点炮) 至少几花", "花 needed to win on a discard (冲)", "Win thresholds"),
        "numbers.min_flowers.qiang_gang": ("抢杠至少几花", "花 needed to win by robbing a kong (抢杠)", "Win thresholds"),
        "numbers.chow_free_min_flowers": ("少于几花只能吃一色 (0 = 不限)", "below this many 花 chow melds must share a suit (0: off)", "Chow restriction"),
        "numbers.flowers.zi_peng": ("字碰几花", "花 of an exposed honour pung (字碰)", "花"),
        "numbers.flowers.zi_an_ke": ("字暗刻几花", "花 of a concealed honour triplet (字暗刻)", "花"),
        "numbers.flowers.ming_gang": ("明杠 (数牌) 几花", "花 of an exposed suited kong (明杠)", "花"),
        "numbers.flowers.an_gang": ("暗杠 (数牌) 几花", "花 of a concealed suited kong (暗杠)", "花"),
        "numbers.flowers.zi_ming_gang": ("字明杠几花", "花 of an exposed honour kong (字明杠)", "花"),
        "numbers.flowers.zi_an_gang": ("字暗杠几花", "花 of a concealed honour kong (字暗杠)", "花"),
        "options.la_zi_needs_no_flowers": ("拉子不要花 (抢杠除外)", "a capped hand (拉子) wins with any 花, except by 抢杠", "Win thresholds"),
        "options.da_diao_che_concealed_kong": ("大吊车的四副可含暗杠", "大吊车's four melds may include concealed kongs", "Patterns and the multiplier"),
        "options.discard_triplet_is_exposed": ("点炮成的字刻算字碰", "an honour triplet completed by the discard is 字碰, not 字暗刻", "花"),
        "options.honour_pung_is_another_suit": ("字碰算另一门 (限吃一色时)", "an honour pung counts as another suit for the chow restriction", "Chow restriction"),
        "options.da_diao_che_payment_multiplier": ("大吊车结算倍数 (1 = 同小胡)", "大吊车's payments are multiplied by this (1: as any hand)", "Payments"),
        **_SETTLEMENT_COMMON,
        "settlement.cheng_bao": ("承包", "承包: who fed 3+ melds of one suit pays a capped hand alone", _LIAB),
        "settlement.cheng_bao_min_melds": ("承包至少几口", "melds one player must feed for 承包", _LIAB),
        "settlement.fan_bao": ("反包", "反包: the liable player pays for the cases of §19", _LIAB),
        "settlement.fan_bao_amounts": ("反包金额算法 (total / extra)", "反包 amounts: what the liable pays in all (total) or on top (extra)", _LIAB),
        "settlement.cheng_bao_table": ("承包数额依据 (cases / cheng_bao_section)", "which table of the seed 承包 amounts follow", _LIAB),
        "settlement.cheng_bao_and_fan_bao": ("既承包又反包者两项都付 (both / larger)", "one player owing 承包 and 反包 pays both (or the larger)", _LIAB),
    },
    "pujiang": {
        "tiles.suits": ("用哪几门数牌", "the suits played (m 万, p 筒, s 条)", "Tiles and calls"),
        "tiles.honours": ("用哪些字牌 (1-7 = 东南西北白发中)", "the honours played (1-7 = E S W N, white, green, red)", "Tiles and calls"),
        "tiles.chow_melds": ("可否吃牌", "whether chow melds (吃) are allowed", "Tiles and calls"),
        "numbers.base_zi": ("底子", "the base 子", "子 and value"),
        "numbers.peng_zi": ("每刻加几子", "子 added per pung", "子 and value"),
        "numbers.gang_zi": ("每杠加几子", "子 added per kong", "子 and value"),
        "numbers.fan_multiplier": ("每番乘几 (子 × 此数^番)", "each 番 multiplies by this (子 × this^番)", "子 and value"),
        "numbers.min_pungs": ("平胡至少几刻", "pungs or kongs a standard hand needs", "Winning"),
        "numbers.wild_copies": ("财神几张 (翻出的一张除外)", "wild copies in play (the indicator aside)", "财神"),
        "numbers.zhen_13_min_honours": ("真13至少几个字", "different honours 真13 needs", "Patterns"),
        "numbers.zhen_zhen_13_honours": ("真真13要几个字", "different honours 真真13 needs", "Patterns"),
        "options.subtract_pungs": ("减碰子在翻番之前 (before_fan) 或之后 (after_fan)", "a payer's pungs come off before doubling (before_fan) or after (after_fan)", "Payments"),
        "options.floor_payment_at_zero": ("付款最少为0", "a payer never owes less than 0", "Payments"),
        "options.white_as_wild_face": ("白板可当财神本身的牌 (假财神)", "白板 may play as the wild's face (假财神)", "财神"),
        "options.two_wilds_pair_is_cai_shen_tou": ("两个财神做头算财神头", "a pair of two wilds is 财神头", "Patterns"),
        "options.qi_dui_four_as_two_pairs": ("七对中四张相同算两对", "four alike count as two of the seven pairs", "Patterns"),
        "options.san_cai_shen_stacks": ("三财神的番加到成牌的番上", "三财神's 番 adds to a complete hand's own 番", "Patterns"),
        "options.robbing_kong_needs_three_pungs": ("抢杠也要三刻", "a win by 抢杠 needs three pungs too", "Winning"),
        "options.robbing_kong_wild_needs_fan": ("有财神抢杠也要有番", "a wild hand winning by 抢杠 needs a 番 too", "Winning"),
        "options.qiang_gang_fan": ("抢杠算几番", "番 a win by robbing a kong (抢杠) is worth", "Winning"),
        "options.qiang_gang_amount": ("抢杠付款算法", "how a robbed player's payment is reckoned", "Payments"),
        "options.zhen_13_wide_gaps": ("真13每门牌相隔至少三", "真13: each suit's tiles at least three apart (159m counts)", "Patterns"),
        **_SETTLEMENT_COMMON,
        "settlement.qiang_gang_bao": ("抢杠被抢者包三家", "the robbed player pays for all three (抢杠包)", _LIAB),
        "settlement.sheng_zhang_bao": ("飘财时打生张者包", "a player who discards an unseen tile while someone 飘s pays (生张包)", _LIAB),
        "settlement.piao_bao": ("后一飘由打杠打碰者包", "the next 飘's money is paid by whoever fed the kong or pung", _LIAB),
        "settlement.piao_limits": ("飘后他人胡牌受限", "after a 飘, the others' wins are limited (1飘: self-draw only, ...)", _LIAB),
        "settlement.piao_one_needs_fan": ("一飘后他人须有番才胡", "after one 飘, the others need a 番 to win", _LIAB),
    },
}

# The fields of pattern entries, labels and titles: names and amounts, described by the field.
ENTRY_FIELD_DOCS: dict[str, tuple[str, str]] = {
    "zh": ("中文名", "Chinese name"),
    "en": ("英文名", "English name"),
    "fan": ("番数", "fan (番) it scores"),
    "fan_with_wild": ("有财神时的番数", "fan (番) when the hand holds a wild"),
    "base": ("成此牌型时的底子", "base 子 when it fires"),
    "role": ("嘴子 (zui_zi) 或 交 (jiao)", "a 嘴子 (zui_zi) or 交 by itself (jiao)"),
}
_GROUPS = {
    "patterns": {"wuhu": "嘴子", "chizhou": "Patterns and the multiplier", "pujiang": "Patterns"},
    "labels": {"wuhu": _AMOUNTS_W, "chizhou": "Patterns and the multiplier", "pujiang": "子 and value"},
}
_TOP = ("title", "labels", "patterns")  # sections named by ENTRY_FIELD_DOCS, not KEYS


@dataclass(frozen=True)
class OptionRow:
    """One key `--set` and `--rules` can change: its value now, what it means, where the docs explain it."""

    key: str
    value: Any
    zh: str
    en: str
    section: str

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "zh": self.zh, "en": self.en, "docs": self.section}

    @property
    def shown(self) -> str:
        """The value as `--set` takes it (YAML flow style for lists and text)."""
        return json.dumps(self.value, ensure_ascii=False) if not isinstance(self.value, str) else self.value


def _leaves(node: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield from _leaves(value, f"{prefix}.{key}" if prefix else str(key))
    else:
        yield prefix, list(node) if isinstance(node, tuple) else node


def _plain(value: Any) -> Any:
    """Read-only containers (tuples, mapping proxies) as JSON takes them."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def describe(document: Mapping[str, Any], scorer: str) -> list[OptionRow]:
    """Every changeable key of a ruleset document (`Ruleset.data`), in document order, described."""
    keys = KEYS.get(scorer, {})
    doc = DOCS.get(scorer, "")
    rows: list[OptionRow] = []
    for section, body in document.items():
        if section in ("name", "version", "scorer", "description") or not isinstance(body, Mapping):
            continue
        for key, value in _leaves(body, section):
            zh, en, where = keys.get(key, ("", "", ""))
            field = key.rsplit(".", 1)[-1]
            if section in _TOP and field in ENTRY_FIELD_DOCS:
                owner = key.split(".")[1] if section != "title" else "title"
                zh, en = (f"{owner}: {ENTRY_FIELD_DOCS[field][0]}", f"{owner}: {ENTRY_FIELD_DOCS[field][1]}")
                where = _GROUPS.get(section, {}).get(scorer, "")
            rows.append(OptionRow(key, _plain(value), zh, en, f"{doc} § {where}" if where and doc else ""))
    return sorted(rows, key=_order)


_SECTION_ORDER = ("options", "numbers", "patterns", "tiles")


def _order(row: OptionRow) -> int:
    """Switches and amounts first, then pattern amounts and tiles; names (zh/en) last. Stable within."""
    if row.key.rsplit(".", 1)[-1] in ("zh", "en"):
        return len(_SECTION_ORDER) + 1
    section = row.key.split(".", 1)[0]
    return _SECTION_ORDER.index(section) if section in _SECTION_ORDER else len(_SECTION_ORDER)
