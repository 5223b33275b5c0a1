"""Plain lines for the live-game commands: the hand just played and the standings.

Lays out the object `mjcalc game settle --json` prints (`report_dict`); computes nothing. Every
word is a catalogue text (core/words), rendered in the language the command was given: with no
language chosen the game commands speak Chinese (their `--lang` default), as they always did.
"""

from __future__ import annotations

from typing import Any

from ..core.words import N_, Named, Text


def done_line(done: str, no: object, lang: str) -> str:
    """What a write did to hand `no`: `undone`, `redone` or `deleted` (`game undo`, `redo`, `delete`)."""
    texts = {"undone": N_("took back hand {no}", no=no), "redone": N_("put back hand {no}", no=no),
             "deleted": N_("removed hand {no}", no=no)}
    return texts[done].render(lang)


def broken_line(no: int, code: str, message: str, lang: str) -> str:
    """A later hand that a change made an error row."""
    return N_("hand {no} is now an error row [{code}]: {message}", no=no, code=code, message=message).render(lang)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _discarded(who: str, lang: str, variant: str | None) -> str:
    """`王 点炮` at a Wuhu table, `王 放冲` at a Chizhou one: the variant's own word (its ruleset's
    `labels.discard`), a parameter of the text in both languages; English says `discard of 王`."""
    from ..present.layout import variant_word

    word = variant_word(variant, "discard", "zh", "放冲") if variant else "放冲"
    return N_("{discard} of {who}", who=who, discard=Named(word, "discard")).render(lang)


def _self_draw(lang: str) -> str:
    return N_("self-draw").render(lang)


def hand_line(hand: dict[str, Any], lang: str, variant: str | None = None) -> str:
    """`hand 5: 李 wins, discard of 王, value 12` and each player's change."""
    head = N_("hand {no}", no=hand["no"]).render(lang)
    if "error" in hand:
        return f"{head}: {N_('error').render(lang)} [{hand['error']['code']}] {hand['error']['message']}"
    if hand.get("draw"):
        what = N_("drawn").render(lang)
    else:
        winners = hand.get("winners") or [hand["winner"]]
        how = _self_draw(lang) if hand.get("self_draw") else _discarded(hand.get("discarder") or "?", lang, variant)
        results = hand["result"] if isinstance(hand["result"], list) else [hand["result"]]
        values = ", ".join(N_("value {value}", value=r["value"]).render(lang) for r in results)
        if len(results) > 1:  # 一炮多响: each winner's value beside their name
            values = ", ".join(f"{who} {N_('value {value}', value=r['value']).render(lang)}" for who, r in zip(winners, results, strict=True))
        what = f"{N_('{who} wins', who='+'.join(winners)).render(lang)}, {how}, {values}"
    changes = "  ".join(f"{p} {_signed(n)}" for p, n in hand["settlement"]["changes"].items())
    return f"{head}: {what}\n  {changes}"


def standings(data: dict[str, Any], lang: str) -> str:
    """One line per player: the win/loss total and, where the variant keeps them, the 子."""
    lines = [N_("standings after {n} hands", n=len(data["hands"])).render(lang) + ":"]
    width = max(len(p) for p in data["players"])
    chips = N_("chips").render(lang)
    for player in data["players"]:
        line = f"  {player:<{width}}  {data['totals'][player]:>+6d}"
        if data.get("chips"):
            line += f"   {chips} {data['chips'][player]}"
        lines.append(line)
    if data.get("ended_at") is not None:
        lines.append(N_("the game ended at hand {no} (a player's chips ran out)", no=data["ended_at"]).render(lang))
    return "\n".join(lines)


def game_rows(games: list[dict[str, Any]], lang: str, width: int | None = None) -> str:
    """`game list`: a game a line, its columns aligned; narrower than that (`width`), the number and
    when it began, then the rest wrapped under them."""
    from ..present.layout import cells, hanging, variant_name

    if not games:
        return N_("no games yet").render(lang)
    names = [variant_name(str(g["variant"]), lang) for g in games]
    column = max(9, *(cells(n) for n in names))
    rows = []
    for g, name in zip(games, names, strict=True):
        head = f"{g['id']:>4}  {g['created'][:16].replace('T', ' ')}"
        hands = (N_("(1 hand)") if g["hands"] == 1 else N_("({n} hands)", n=g["hands"])).render(lang)
        rows.append((head, name, ",".join(g["players"]), hands))
    wide = [f"{head}  {name}{' ' * (column - cells(name))} {players}  {hands}" for head, name, players, hands in rows]
    if width is None or all(cells(line) <= width for line in wide):
        return "\n".join(wide)
    return "\n".join(hanging(head, f"{name}  {players}  {hands}", width) for head, name, players, hands in rows)


def _tiles(text: object, lang: str) -> str:
    """A hand's or a meld's tiles (`555p@王`): as players say them on a chosen Chinese screen."""
    from ..present.layout import said

    tiles, at, source = str(text).partition("@")
    return said(tiles, lang) + at + source


def hand_summary(hand: dict[str, Any], lang: str, variant: str | None = None) -> str:
    """A hand as entered, in one line: `李 和, 王 放冲: 123456m13m99p555p2m 555p@王` (or 流局), then its note;
    on a chosen Chinese screen its tiles as players say them (`一二三四五六万 ...`)."""
    line = _summary(hand, lang, variant)
    note = hand.get("note")
    return f"{line} ({N_('note: {note}', note=note).render(lang)})" if isinstance(note, str) and note else line


def _summary(hand: dict[str, Any], lang: str, variant: str | None) -> str:
    if hand.get("draw"):
        return N_("drawn").render(lang)
    entries = hand["winners"] if isinstance(hand.get("winners"), list) else [hand]
    how = _self_draw(lang) if hand.get("self_draw") else _discarded(str(hand.get("discarder") or "?"), lang, variant)
    tiles = "; ".join(" ".join(_tiles(x, lang) for x in [e.get("hand", ""), *(e.get("melds") or [])] if x)
                      for e in entries if isinstance(e, dict))
    who = "+".join(str(e.get("winner", "?")) for e in entries if isinstance(e, dict))
    return f"{N_('{who} wins', who=who).render(lang)}, {how}: {tiles}"


def _event(kind: str, no: object, what: str) -> Text:
    """One event of a game's history, by its kind."""
    if kind == "hand":
        return N_("hand {no} entered: {what}", no=no, what=what)
    if kind == "edit":
        return N_("hand {no} changed to: {what}", no=no, what=what)
    if kind == "delete":
        return N_("hand {no} removed", no=no)
    if kind == "undo":
        return N_("hand {no} taken back (undo)", no=no)
    if kind == "redo":
        return N_("hand {no} put back (redo)", no=no)
    raise KeyError(kind)


def history_lines(events: list[dict[str, Any]], lang: str, variant: str | None = None, width: int | None = None) -> str:
    """`mjcalc game history`: one line per event, with its time and the hand it is about (a control
    character in what was stored written as its escape); an event wider than `width` has its time on
    a line, and what happened wrapped under it."""
    from ..present.errors import inert
    from ..present.layout import hanging

    if not events:
        return N_("nothing recorded in this game yet").render(lang)
    out = []
    for ev in events:
        what = inert(hand_summary(ev["hand"], lang, variant)) if isinstance(ev.get("hand"), dict) else ""
        text = _event(ev["kind"], ev.get("no", "?"), what).render(lang)
        out.append(hanging(f"{ev['seq']:>4}  {ev['at'][:19].replace('T', ' ')}", text, width))
    return "\n".join(out)
