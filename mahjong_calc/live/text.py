"""Plain lines for the live-game commands: the hand just played and the standings.

Lays out the object `mjcalc game settle --json` prints (`report_dict`); computes nothing.
"""

from __future__ import annotations

from typing import Any

WORDS = {
    "zh": {"hand": "第 {no} 局", "draw": "流局", "wins": "{who} 和", "self_draw": "自摸", "from": "{who} 放冲",
           "value": "番 {value}", "standings": "{n} 局后积分", "chips": "子", "undone": "已撤销第 {no} 局",
           "none": "还没有牌局", "game": "牌局 {id}", "ended": "第 {no} 局结束 (有人子输光)", "error": "错误"},
    "en": {"hand": "hand {no}", "draw": "drawn (流局)", "wins": "{who} wins", "self_draw": "self-draw",
           "from": "discard of {who}", "value": "value {value}", "standings": "standings after {n} hands",
           "chips": "子", "undone": "took back hand {no}", "none": "no games yet", "game": "game {id}",
           "ended": "the game ended at hand {no} (a player's 子 ran out)", "error": "error"},
}


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def hand_line(hand: dict[str, Any], lang: str) -> str:
    """`hand 5: 李 wins, discard of 王, value 12` and each player's change."""
    w = WORDS[lang]
    head = w["hand"].format(no=hand["no"])
    if "error" in hand:
        return f"{head}: {w['error']} [{hand['error']['code']}] {hand['error']['message']}"
    if hand.get("draw"):
        what = w["draw"]
    else:
        winners = hand.get("winners") or [hand["winner"]]
        how = w["self_draw"] if hand.get("self_draw") else w["from"].format(who=hand.get("discarder") or "?")
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


def game_rows(games: list[dict[str, Any]], lang: str) -> str:
    if not games:
        return WORDS[lang]["none"]
    out = []
    for g in games:
        out.append(f"{g['id']:>4}  {g['created'][:16].replace('T', ' ')}  {g['variant']:<9} "
                   f"{','.join(g['players'])}  ({g['hands']} {'局' if lang == 'zh' else 'hands'})")
    return "\n".join(out)
