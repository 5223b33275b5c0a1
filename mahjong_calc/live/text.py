"""Plain lines for the live-game commands: the hand just played and the standings.

Lays out the object `mjcalc game settle --json` prints (`report_dict`); computes nothing.
"""

from __future__ import annotations

from typing import Any

WORDS = {
    "zh": {"hand": "第 {no} 局", "draw": "流局", "wins": "{who} 和", "self_draw": "自摸", "from": "{who} {discard}",
           "value": "番 {value}", "standings": "{n} 局后积分", "chips": "子", "undone": "已撤销第 {no} 局",
           "none": "还没有牌局", "game": "牌局 {id}", "ended": "第 {no} 局结束 (有人子输光)", "error": "错误",
           "redone": "已恢复第 {no} 局", "deleted": "已删除第 {no} 局",
           "broken": "第 {no} 局现在是错误行 [{code}]: {message}",
           "ev_hand": "记入第 {no} 局: {what}", "ev_edit": "修改第 {no} 局为: {what}", "ev_delete": "删除第 {no} 局",
           "ev_undo": "撤销第 {no} 局", "ev_redo": "恢复第 {no} 局", "no_events": "这个牌局还没有记录"},
    "en": {"hand": "hand {no}", "draw": "drawn", "wins": "{who} wins", "self_draw": "self-draw",
           "from": "discard of {who}", "value": "value {value}", "standings": "standings after {n} hands",
           "chips": "chips", "undone": "took back hand {no}", "none": "no games yet", "game": "game {id}",
           "ended": "the game ended at hand {no} (a player's chips ran out)", "error": "error",
           "redone": "put back hand {no}", "deleted": "removed hand {no}",
           "broken": "hand {no} is now an error row [{code}]: {message}",
           "ev_hand": "hand {no} entered: {what}", "ev_edit": "hand {no} changed to: {what}", "ev_delete": "hand {no} removed",
           "ev_undo": "hand {no} taken back (undo)", "ev_redo": "hand {no} put back (redo)", "no_events": "nothing recorded in this game yet"},
}


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _discarded(who: str, lang: str, variant: str | None) -> str:
    """`王 点炮` at a Wuhu table, `王 放冲` at a Chizhou one: the variant's own word (its ruleset's labels)."""
    from ..present.layout import variant_word

    word = variant_word(variant, "discard", "zh", "放冲") if lang == "zh" and variant else "放冲"
    return WORDS[lang]["from"].format(who=who, discard=word)


def hand_line(hand: dict[str, Any], lang: str, variant: str | None = None) -> str:
    """`hand 5: 李 wins, discard of 王, value 12` and each player's change."""
    w = WORDS[lang]
    head = w["hand"].format(no=hand["no"])
    if "error" in hand:
        return f"{head}: {w['error']} [{hand['error']['code']}] {hand['error']['message']}"
    if hand.get("draw"):
        what = w["draw"]
    else:
        winners = hand.get("winners") or [hand["winner"]]
        how = w["self_draw"] if hand.get("self_draw") else _discarded(hand.get("discarder") or "?", lang, variant)
        results = hand["result"] if isinstance(hand["result"], list) else [hand["result"]]
        values = ", ".join(w["value"].format(value=r["value"]) for r in results)
        if len(results) > 1:  # 一炮多响: each winner's value beside their name
            values = ", ".join(f"{who} {w['value'].format(value=r['value'])}" for who, r in zip(winners, results, strict=True))
        what = f"{w['wins'].format(who='+'.join(winners))}, {how}, {values}"
    changes = "  ".join(f"{p} {_signed(n)}" for p, n in hand["settlement"]["changes"].items())
    return f"{head}: {what}\n  {changes}"


def standings(data: dict[str, Any], lang: str) -> str:
    """One line per player: the win/loss total and, where the variant keeps them, the 子."""
    w = WORDS[lang]
    lines = [w["standings"].format(n=len(data["hands"])) + ":"]
    width = max(len(p) for p in data["players"])
    for player in data["players"]:
        line = f"  {player:<{width}}  {data['totals'][player]:>+6d}"
        if data.get("chips"):
            line += f"   {w['chips']} {data['chips'][player]}"
        lines.append(line)
    if data.get("ended_at") is not None:
        lines.append(w["ended"].format(no=data["ended_at"]))
    return "\n".join(lines)


def _cells(text: str) -> int:
    """Terminal columns of `text`: two for a wide (CJK) character."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def game_rows(games: list[dict[str, Any]], lang: str) -> str:
    from ..present.layout import variant_name

    if not games:
        return WORDS[lang]["none"]
    names = [variant_name(str(g["variant"]), lang) for g in games]
    width = max(9, *(_cells(n) for n in names))
    out = []
    for g, name in zip(games, names, strict=True):
        out.append(f"{g['id']:>4}  {g['created'][:16].replace('T', ' ')}  {name}{' ' * (width - _cells(name))} "
                   f"{','.join(g['players'])}  ({g['hands']} {'局' if lang == 'zh' else 'hands'})")
    return "\n".join(out)


def hand_summary(hand: dict[str, Any], lang: str, variant: str | None = None) -> str:
    """A hand as entered, in one line: `李 和, 王 放冲: 123456m13m99p555p2m 555p@王` (or 流局)."""
    w = WORDS[lang]
    if hand.get("draw"):
        return w["draw"]
    entries = hand["winners"] if isinstance(hand.get("winners"), list) else [hand]
    how = w["self_draw"] if hand.get("self_draw") else _discarded(str(hand.get("discarder") or "?"), lang, variant)
    tiles = "; ".join(" ".join(str(x) for x in [e.get("hand", ""), *(e.get("melds") or [])] if x) for e in entries if isinstance(e, dict))
    who = "+".join(str(e.get("winner", "?")) for e in entries if isinstance(e, dict))
    return f"{w['wins'].format(who=who)}, {how}: {tiles}"


def history_lines(events: list[dict[str, Any]], lang: str, variant: str | None = None) -> str:
    """`mjcalc game history`: one line per event, with its time and the hand it is about."""
    w = WORDS[lang]
    if not events:
        return w["no_events"]
    out = []
    for ev in events:
        what = hand_summary(ev["hand"], lang, variant) if isinstance(ev.get("hand"), dict) else ""
        text = w[f"ev_{ev['kind']}"].format(no=ev.get("no", "?"), what=what)
        out.append(f"{ev['seq']:>4}  {ev['at'][:19].replace('T', ' ')}  {text}")
    return "\n".join(out)
