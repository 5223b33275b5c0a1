"""One winner of a hand: the values a player would otherwise type, worked out from the game
record (the payers' seats relative to the winner, who fed each meld, the Pujiang pungs of each
payer), scored on the one path (`read_hand`, `score`, with the library's session) and settled
(liability, `api/settle.py`). engine.py folds a game's hands over it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..api.score import score
from ..api.session import ABSENT, FLAG_NAMES
from ..api.session import DEFAULT as SESSION
from ..api.settle import Settlement, Sourced, Table, settle
from ..core import flags as flag_table
from ..core.context import SEATS, Seat, WinContext
from ..core.errors import MjcalcError
from ..core.flags import check_variant, in_field_words
from ..core.hand import parse_meld, read_hand
from ..core.result import ScoreResult
from ..core.seats import POSITIONS, Position, absolute, relative
from . import fields as hand_fields
from .fields import hand_error, opponent_pungs_of, player_seat, sourced_melds
from .game_file import GameFile

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset


class Win(NamedTuple):
    """One winner of a hand, read: what `score` and `settle` need."""

    seat: int
    fields: Mapping[str, Any]
    named: bool = False  # one entry of `winners:`: its errors name the winner


_ABSOLUTE = tuple({position: absolute(winner, position) for position in POSITIONS} for winner in range(4))  # winner -> position -> seat


def _score_cached(rs: Ruleset[Any, Any, Any], values: dict[str, Any]) -> tuple[ScoreResult, WinContext]:
    """Score one winner's tiles on the one path (api/session.py), the facts of the win checked before
    the tiles are read; memoised on the ruleset, since games repeat hands."""
    key = ("won", *values.values())  # the same keys in the same order for every hand: the values alone are the key
    cached: tuple[ScoreResult, WinContext] | MjcalcError | None = rs.memo.get(key)
    if cached is None:
        try:
            ctx = SESSION.facts_of(rs, tuple([values.get(name, absent) for name, absent in zip(FLAG_NAMES, ABSENT)]), "field").win_context()
            hand = read_hand(values["hand"], values["melds"], values["concealed_kongs"], values["win"])
            cached = (score(hand, ctx, rs), ctx)
        except MjcalcError as err:
            cached = err.with_traceback(None)  # kept: its traceback would keep the game alive
        rs.memo.keep(key, cached)
    if isinstance(cached, MjcalcError):
        raise cached.fresh()
    return cached


def _in_game_words(err: MjcalcError) -> MjcalcError:
    """A library message in a game record's words: its fields, not `score`'s flags."""
    if in_field_words(err.message) == err.message:
        return err
    return err.rewritten(in_field_words)


class Scored(NamedTuple):
    """One winner's result as scored, and its settlement."""

    result: ScoreResult
    settled: Settlement


def _foreign(scorer: str) -> frozenset[str]:
    """The fields a record may give that `scorer`'s variant does not take (check_variant refuses them when set)."""
    table = hand_fields.game_fields()
    names = table.foreign.get(scorer)
    if names is None:
        by_name = flag_table.by_name()
        names = table.foreign[scorer] = frozenset(n for n in table.checked if (v := by_name[n].variants) is not None and scorer not in v)
    return names


def _names(winner: int, players: tuple[str, ...]) -> dict[Position, str]:
    """Table.names: each position, seen from the winner, and its player's name (made once per seat and players)."""
    key = ("table_names", winner, players)
    names: dict[Position, str] | None = SESSION.kept.get(key)
    if names is None:
        names = SESSION.kept.keep(key, {relative(winner, seat): name for seat, name in enumerate(players)})
    return names


def win_one(
    game: GameFile, dealer: int, w: Win, discarder: int | None, shared: Mapping[str, Any]
) -> tuple[Scored, list[tuple[int, int]], list[tuple[int, str, str, str, int]]]:
    """Score and settle one winner: the result, (payer seat, amount) pairs and liability rows."""
    players, rs = game.players, game.ruleset
    f = {**shared, **w.fields} if w.fields else shared
    declared = hand_fields.game_fields()
    if "hand" not in f:
        raise hand_error("missing_field", "{player}'s win has no 'hand'", player=players[w.seat])
    if discarder is None and not any([f.get(name) for name in declared.drawn]):
        if f.get("robbing_kong"):
            raise hand_error("missing_discarder", "{player}'s win: a 抢杠 win needs discarder, the player whose kong was robbed", player=players[w.seat])
        raise hand_error("missing_discarder", "{player}'s win: {ways}", player=players[w.seat], ways=flag_table.win_ways(rs.scorer))
    melds = sourced_melds(texts, w.seat, players, "melds:") if (texts := f.get("melds")) else []
    for kong in f.get("concealed_kongs", []):
        if "@" in kong:
            raise hand_error("source_on_concealed_kong", "concealed_kongs: {kong!r}: a concealed kong was fed by nobody; drop the @source", kong=kong)
    exposed: dict[Seat, tuple[Sourced, ...]] = {}
    for name, texts in (f.get("exposed") or {}).items():
        owner = player_seat(name, "exposed:", players)
        if owner == w.seat:
            raise hand_error("bad_field", "exposed: {name!r} is the winner; the winner's melds go in melds:", name=name)
        seat: Seat = relative(w.seat, owner)  # type: ignore[assignment]
        items = []
        for text, source in sourced_melds(texts, owner, players, f"exposed: {name}:"):
            items.append(Sourced(parse_meld(text), relative(w.seat, source) if source is not None else None))
        exposed[seat] = tuple(items)
    pungs = f.get("opponent_pungs")
    if isinstance(pungs, dict):
        counts = [0, 0, 0]
        for name, n in pungs.items():
            owner = player_seat(name, "opponent_pungs:", players)
            if owner == w.seat or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise hand_error("bad_opponent_pungs", "opponent_pungs: {name}: {n!r} is not a payer's count of exposed pungs", name=name, n=n)
            counts[SEATS.index(relative(w.seat, owner))] = n
        pungs = tuple(counts)
    elif isinstance(pungs, list):
        pungs = tuple(pungs)
    elif pungs is None and exposed:
        # an exposed kong counts as two pungs (一杠可以理解成为2碰; docs/rules/pujiang.md)
        pungs = tuple(sum({"pung": 1, "kong": 2}.get(s.meld.kind, 0) for s in exposed.get(seat, ())) for seat in SEATS)
    if discarder is not None and discarder == w.seat:
        raise hand_error("bad_field", "discarder: {player} cannot discard to themself", player=players[w.seat])
    values: dict[str, Any] = {
        "hand": f["hand"],
        "win": f.get("win"),
        "melds": tuple(m for m, _ in melds),
        "concealed_kongs": tuple(f.get("concealed_kongs", ())),
        **declared.flag_defaults,  # self_draw, after_kong, ...: each flag's default, then the ones the record gives
        "dealer": dealer == w.seat,
        "dealer_seat": relative(w.seat, dealer) if dealer != w.seat else None,
        "discarder": relative(w.seat, discarder) if discarder is not None else None,
        "opponent_pungs": pungs,
    }
    bools = declared.flag_bools
    for name in f:
        if (is_bool := bools.get(name)) is not None:
            values[name] = bool(f[name]) if is_bool else f[name]
    if not _foreign(rs.scorer).isdisjoint(f):  # a flag the variant does not use is an error, never ignored
        given = {k: values[k] for k in declared.record_flags if k in f} | {k: f[k] for k in declared.table_fields if k in f}
        check_variant(given, rs.scorer, rs.name)
    for needy, needed in declared.needs:
        if needy in f and needed not in f:  # without the 飘 round's player it would mean nothing
            raise hand_error("conflicting_fields", "{needy} needs {needed}: name the player in the 飘 round", needy=needy, needed=needed)
    if "opponent_pungs" in f:
        values["opponent_pungs"] = opponent_pungs_of(values["opponent_pungs"], f["opponent_pungs"], w.seat, players)
    if declared.dealer_variants is not None and rs.scorer not in declared.dealer_variants:  # the computed dealer facts go only where the variant reads them
        values["dealer"], values["dealer_seat"] = False, None
    try:
        result, ctx = _score_cached(rs, values)
    except MjcalcError as err:
        raise _in_game_words(err) from None
    piao_by = player_seat(f["piao_by"], "piao_by:", players) if "piao_by" in f else None
    sheng = player_seat(f["sheng_zhang"], "sheng_zhang:", players) if "sheng_zhang" in f else None
    if sheng == w.seat:
        raise hand_error("bad_field", "sheng_zhang: {player} is the winner; name who discarded the 生张", player=players[w.seat])
    hua = {relative(w.seat, player_seat(n, "hua:", players)): v for n, v in f["hua"].items()} if "hua" in f else {}
    la_zi = frozenset(relative(w.seat, player_seat(n, "la_zi:", players)) for n in f["la_zi"]) if "la_zi" in f else frozenset()
    if "winner" in hua or "winner" in la_zi:
        raise hand_error("bad_field", "hua: / la_zi: name the other players, not the winner {player}", player=players[w.seat])
    sources = tuple([relative(w.seat, s) if s is not None else None for _, s in melds])
    plain = not (exposed or hua or la_zi or piao_by is not None or sheng is not None or "piao_count" in f)
    key = ("table", w.seat, players, sources)
    table: Table | None = SESSION.kept.get(key) if plain else None  # a frozen Table: one per seat, players, sources
    if table is None:
        table = Table(sources=sources, exposed=exposed,
            hua=hua,  # type: ignore[arg-type]
            la_zi=la_zi,  # type: ignore[arg-type]
            piao_by=relative(w.seat, piao_by) if piao_by is not None else None,
            piao_count=int(f.get("piao_count", 0)),
            sheng_zhang=relative(w.seat, sheng) if sheng is not None else None,  # type: ignore[arg-type]
            names=_names(w.seat, players),
        )
        if plain:
            SESSION.kept.keep(key, table)
    try:
        settled = settle(result, ctx, table, rs)
    except MjcalcError as err:
        raise _in_game_words(err) from None
    seat_of = _ABSOLUTE[w.seat]
    pays = [(seat_of[seat], amount) for seat, amount in settled.payments.items()]
    rows = [(absolute(w.seat, r.payer), r.code, r.zh, r.en, r.amount) for r in settled.liability]  # type: ignore[arg-type]
    return Scored(result, settled), pays, rows
