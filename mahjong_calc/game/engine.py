"""A game is a fold over its hands: `step(game, state, hand) -> (state, row)`.

For each hand the engine works out what a player would otherwise type: who deals,
each payer's seat relative to the winner, who fed each meld, the Pujiang pungs of
each payer; then it scores the hand (the floor below, unchanged), settles it
(liability, `api/settle.py`), and moves the totals, the 子 ledger and the deal on.
The standings are `reduce(step, hands, start)`: a game stored as its hands alone
always settles to the same totals.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ..api.row import RowResult, score_win
from ..api.score import score
from ..api.settle import Settlement, Sourced, Table, settle, settlement_options
from ..core import flags as flag_table
from ..core.context import SEATS, Seat, WinContext
from ..core.errors import MjcalcError
from ..core.flags import check_variant, in_field_words
from ..core.hand import build_hand, check_table_copies, make_context, parse_meld
from ..core.result import ScoreResult
from ..core.seats import POSITIONS, Position, absolute, relative, seat_index, split_source
from ..core.tiles import parse_tile, parse_tiles
from . import fields as hand_fields
from .fields import _check_kind, _fail, _fields, _player, _pungs, _sourced, hand_kinds, winner_fields
from .game_file import GameFile, RawHand
from .ledger import Transfer, apply_chips, fewest_transfers, next_dealer


@dataclass(frozen=True)
class State:
    """The standings after some hands: who deals next, the win/loss totals, the 子, the end."""

    dealer: int
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)
    chips: tuple[int, ...] | None = None
    ended_at: int | None = None


@dataclass(frozen=True)
class HandRow:
    """One hand, settled (or its error), in absolute seats 0..3."""

    no: int
    dealer: int
    winners: tuple[int, ...] = ()
    discarder: int | None = None
    self_draw: bool = False
    draw: bool = False
    results: tuple[Scored, ...] = ()
    error: MjcalcError | None = None
    changes: tuple[int, int, int, int] = (0, 0, 0, 0)
    liability: tuple[tuple[int, str, str, str, int], ...] = ()  # (payer, code, zh, en, amount)
    chips_after: tuple[int, ...] | None = None
    transfers: tuple[Transfer, ...] = field(default=(), repr=False)
    extra: Mapping[str, Any] | None = None  # the hand's columns that are not fields, echoed (--extra-fields keep)


@dataclass(frozen=True)
class Report:
    """A settled game."""

    game: GameFile
    rows: tuple[HandRow, ...]
    state: State
    transfers: tuple[tuple[int, int, int], ...]  # (from, to, amount) settling the totals

    @property
    def failed(self) -> bool:
        return any(r.error is not None for r in self.rows)



class _Win(NamedTuple):
    """One winner of a hand, read: what `score` and `settle` need."""

    seat: int
    fields: Mapping[str, Any]
    named: bool = False  # one entry of `winners:`: its errors name the winner


# --- one hand -----------------------------------------------------------------------


_TILE_FIELDS = frozenset(("hand", "melds", "concealed_kongs", "win"))  # the first four of a winner's values
CACHE_HANDS = 16384  # scored hands kept per game: the memory of a long game stays bounded
_OPTIONS = "options"  # the game cache's key for the settlement options
_CONTEXTS: dict[tuple[Any, ...], WinContext] = {}  # a winner's facts -> their checked WinContext
_NAMES: dict[tuple[int, tuple[str, ...]], dict[Position, str]] = {}  # (winner, players) -> Table.names
_TABLES: dict[tuple[Any, ...], Table] = {}  # (winner, players, sources) -> the Table of a hand with no other table facts
_ABSOLUTE = tuple({position: absolute(winner, position) for position in POSITIONS} for winner in range(4))  # winner -> position -> seat


def _context(values: dict[str, Any], key: tuple[Any, ...]) -> WinContext:
    """make_context of a winner's facts (its values but the tiles; `key`: those values), made once per distinct
    set of facts (an error is not kept here: its traceback would keep the game alive; the game's cache keeps it)."""
    made = _CONTEXTS.get(key)
    if made is None:
        made = make_context(spelling="field", **{k: v for k, v in values.items() if k not in _TILE_FIELDS})
        if len(_CONTEXTS) >= CACHE_HANDS:
            _CONTEXTS.clear()
        _CONTEXTS[key] = made
    return made


# The lean path a win takes first. A module global, not Final, so that even compiled code reads it
# at each call: tests/test_game_lean.py sends every win through `score` with it, and compares.
lean_win: Callable[[Any, WinContext, str, str | None, Sequence[str], Sequence[str]], RowResult | MjcalcError | None] = score_win


def _score_cached(game: GameFile, values: dict[str, Any]) -> tuple[ScoreResult | RowResult, WinContext]:
    """Score one winner's tiles; memoised per game, since long games repeat hands.

    The lean path (`lean_win`, api/row.score_win: the kernel's integers and cached texts) answers what it
    can, exactly as `score` would; anything else goes to `score`, which words every error."""
    key = tuple(values.values())  # the same keys in the same order for every hand: the values alone are the key
    cached = game.cache.get(key)
    if cached is None:
        try:
            ctx = _context(values, key[4:])  # the values after the tiles
            rs = game.ruleset
            lean = lean_win(rs, ctx, values["hand"], values["win"], values["melds"], values["concealed_kongs"])
            if isinstance(lean, MjcalcError):  # a NotAWin, or an InputError of the variant's checks
                raise lean
            won: ScoreResult | RowResult = lean if lean is not None else score(
                build_hand(values["hand"], values["melds"], values["concealed_kongs"], values["win"]), ctx, rs)
            cached = (won, ctx)
        except MjcalcError as err:
            cached = err
        if len(game.cache) < CACHE_HANDS:
            game.cache[key] = cached
    if isinstance(cached, MjcalcError):
        raise cached
    return cached


def _in_game_words(err: MjcalcError) -> MjcalcError:
    """A library message in a game record's words: its fields, not `score`'s flags."""
    if in_field_words(err.message) == err.message:
        return err
    return err.rewritten(in_field_words)


class Scored(NamedTuple):
    """One winner's result as scored, and its settlement."""

    result: ScoreResult | RowResult
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
    key = (winner, players)
    names = _NAMES.get(key)
    if names is None:
        if len(_NAMES) >= 1024:
            _NAMES.clear()
        names = _NAMES[key] = {relative(winner, seat): name for seat, name in enumerate(players)}
    return names


def _win_one(
    game: GameFile, state: State, w: _Win, discarder: int | None, shared: Mapping[str, Any]
) -> tuple[Scored, list[tuple[int, int]], list[tuple[int, str, str, str, int]]]:
    """Score and settle one winner: the result, (payer seat, amount) pairs and liability rows."""
    players, rs = game.players, game.ruleset
    f = {**shared, **w.fields} if w.fields else shared
    declared = hand_fields.game_fields()
    if "hand" not in f:
        raise _fail("missing_field", "{player}'s win has no 'hand'", player=players[w.seat])
    if discarder is None and not any([f.get(name) for name in declared.drawn]):
        if f.get("robbing_kong"):
            raise _fail("missing_discarder", "{player}'s win: a 抢杠 win needs discarder, the player whose kong was robbed", player=players[w.seat])
        raise _fail("missing_discarder", "{player}'s win: {ways}", player=players[w.seat], ways=flag_table.win_ways(rs.scorer))
    melds = _sourced(texts, w.seat, players, "melds:") if (texts := f.get("melds")) else []
    for kong in f.get("concealed_kongs", []):
        if "@" in kong:
            raise _fail("source_on_concealed_kong", "concealed_kongs: {kong!r}: a concealed kong was fed by nobody; drop the @source", kong=kong)
    dealer = state.dealer
    exposed: dict[Seat, tuple[Sourced, ...]] = {}
    for name, texts in (f.get("exposed") or {}).items():
        owner = _player(name, "exposed:", players)
        if owner == w.seat:
            raise _fail("bad_field", "exposed: {name!r} is the winner; the winner's melds go in melds:", name=name)
        seat: Seat = relative(w.seat, owner)  # type: ignore[assignment]
        items = []
        for text, source in _sourced(texts, owner, players, f"exposed: {name}:"):
            items.append(Sourced(parse_meld(text), relative(w.seat, source) if source is not None else None))
        exposed[seat] = tuple(items)
    pungs = f.get("opponent_pungs")
    if isinstance(pungs, dict):
        counts = [0, 0, 0]
        for name, n in pungs.items():
            owner = _player(name, "opponent_pungs:", players)
            if owner == w.seat or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise _fail("bad_opponent_pungs", "opponent_pungs: {name}: {n!r} is not a payer's count of exposed pungs", name=name, n=n)
            counts[SEATS.index(relative(w.seat, owner))] = n
        pungs = tuple(counts)
    elif isinstance(pungs, list):
        pungs = tuple(pungs)
    elif pungs is None and exposed:
        # an exposed kong counts as two pungs (一杠可以理解成为2碰; docs/rules/pujiang.md)
        pungs = tuple(sum({"pung": 1, "kong": 2}.get(s.meld.kind, 0) for s in exposed.get(seat, ())) for seat in SEATS)
    if discarder is not None and discarder == w.seat:
        raise _fail("bad_field", "discarder: {player} cannot discard to themself", player=players[w.seat])
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
            raise _fail("conflicting_fields", "{needy} needs {needed}: name the player in the 飘 round", needy=needy, needed=needed)
    if "opponent_pungs" in f:
        values["opponent_pungs"] = _pungs(values["opponent_pungs"], f["opponent_pungs"], w.seat, players)
    if declared.dealer_variants is not None and rs.scorer not in declared.dealer_variants:  # the computed dealer facts go only where the variant reads them
        values["dealer"], values["dealer_seat"] = False, None
    try:
        result, ctx = _score_cached(game, values)
    except MjcalcError as err:
        raise _in_game_words(err) from None
    piao_by = _player(f["piao_by"], "piao_by:", players) if "piao_by" in f else None
    sheng = _player(f["sheng_zhang"], "sheng_zhang:", players) if "sheng_zhang" in f else None
    if sheng == w.seat:
        raise _fail("bad_field", "sheng_zhang: {player} is the winner; name who discarded the 生张", player=players[w.seat])
    hua = {relative(w.seat, _player(n, "hua:", players)): v for n, v in f["hua"].items()} if "hua" in f else {}
    la_zi = frozenset(relative(w.seat, _player(n, "la_zi:", players)) for n in f["la_zi"]) if "la_zi" in f else frozenset()
    if "winner" in hua or "winner" in la_zi:
        raise _fail("bad_field", "hua: / la_zi: name the other players, not the winner {player}", player=players[w.seat])
    sources = tuple([relative(w.seat, s) if s is not None else None for _, s in melds])
    plain = not (exposed or hua or la_zi or piao_by is not None or sheng is not None or "piao_count" in f)
    table = _TABLES.get(key := (w.seat, players, sources)) if plain else None  # a frozen Table: one per seat, players, sources
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
            if len(_TABLES) >= 1024:
                _TABLES.clear()
            _TABLES[key] = table
    try:
        settled = settle(result, ctx, table, rs)
    except MjcalcError as err:
        raise _in_game_words(err) from None
    seat_of = _ABSOLUTE[w.seat]
    pays = [(seat_of[seat], amount) for seat, amount in settled.payments.items()]
    rows = [(absolute(w.seat, r.payer), r.code, r.zh, r.en, r.amount) for r in settled.liability]  # type: ignore[arg-type]
    return Scored(result, settled), pays, rows


def _check_copies(game: GameFile, shared: Mapping[str, Any], wins: Sequence[_Win]) -> None:
    """At most 4 copies of a tile over all the record shows: each winner's tiles, every
    `exposed:` meld and the 财神 indicator (the copies of the 财神 not in play)."""
    exposed: Mapping[str, Sequence[str]] = shared.get("exposed") or {}
    if len(wins) == 1 and not exposed and not wins[0].fields and not shared.get("wild"):
        return  # the winner's own tiles were checked when they were scored (the common case, told without a dict)
    players = game.players
    fields = [{**shared, **w.fields} for w in wins]
    wilds = sorted({f["wild"] for f in fields if f.get("wild")})
    if len(wins) == 1 and not exposed and not wilds:
        return

    def tiles_of(texts: Iterable[str]) -> list[int]:
        return [t for text in texts for t in parse_meld(split_source(text)[0]).tiles]

    shown = [(f"{players[w.seat]}'s hand and melds", [*parse_tiles(f["hand"]), *tiles_of((*f.get("melds", ()), *f.get("concealed_kongs", ())))])
             for w, f in zip(wins, fields, strict=True)]
    owners = sorted((_player(name, "exposed:", players), texts) for name, texts in exposed.items())  # in seat order
    shown += [(f"{players[owner]}'s melds", tiles_of(texts)) for owner, texts in owners]
    indicator = 4 - getattr(game.ruleset.numbers, "wild_copies", 4)
    shown += [("the 财神 indicator", [parse_tile(wild)] * indicator) for wild in wilds]
    check_table_copies(shown)


def step(game: GameFile, state: State, raw: RawHand) -> tuple[State, HandRow]:
    """Settle one hand: the new standings and the hand's row. A bad hand changes nothing."""
    try:
        if raw.error is not None:
            raise raw.error
        if state.ended_at is not None:
            raise _fail("game_over", "the game ended at hand {ended_at}, when a player's 子 ran out; to go on, give the game "
                        "its 子 (a `chips` header field or CSV column; `chips: 0` keeps no 子 ledger) or begin the next sitting "
                        "as a new game (a new `game` id in a CSV log)", ended_at=state.ended_at)
        return _step(game, state, raw)
    except MjcalcError as err:
        return state, HandRow(raw.no, state.dealer, chips_after=state.chips, error=err)


def _step(game: GameFile, state: State, raw: RawHand) -> tuple[State, HandRow]:
    opt = game.cache.get(_OPTIONS)
    if opt is None:
        opt = game.cache[_OPTIONS] = settlement_options(game.ruleset)
    players = game.players
    f = _fields(raw.value)
    if "dealer" in f:
        said = _player(f.pop("dealer"), "dealer:", players)
        if said != state.dealer:
            raise _fail("two_dealers", "dealer: the record says {player}, but {dealer} deals this hand", player=players[said], dealer=players[state.dealer])
    f.pop("id", None)
    winners_given = [k for k in ("winner", "winners") if k in f]
    if f.pop("draw", False):
        if winners_given:
            raise _fail("conflicting_fields", "draw: true and a winner cannot both be given")
        if len(f):
            raise _fail("conflicting_fields", "a drawn hand (流局) has no {value}", value=', '.join(sorted(f)))
        dealer = next_dealer(state.dealer, (), opt)
        return replace(state, dealer=dealer), HandRow(raw.no, state.dealer, draw=True, chips_after=state.chips)
    if len(winners_given) != 1:
        raise _fail("missing_field", "a hand needs winner: (or winners: where 一炮多响 is allowed), or draw: true")
    discarder = _player(f.pop("discarder"), "discarder:", players) if "discarder" in f else None
    if "winner" in f:
        wins = [_Win(_player(f.pop("winner"), "winner:", players), {})]
    else:
        entries = f.pop("winners")
        if len(entries) > 1 and not opt.multiple_winners:  # the form itself, before any one winner's tiles
            raise _fail("multiple_winners_not_allowed", "{name} has no 一炮多响: only one player wins a discard", name=game.ruleset.name)
        wins = []
        for i, entry in enumerate(entries):
            known = seat_index(entry["winner"], players) if isinstance(entry.get("winner"), str) else None
            try:
                for key in entry:
                    if key not in winner_fields():
                        raise _fail("unknown_field", "winners[{i}]: {key!r} is not one winner's field ({winner_fields})",
                            i=i, key=key, winner_fields=', '.join(winner_fields()))
                if "winner" not in entry:
                    raise _fail("missing_field", "winners[{i}]: name the winner", i=i)
                for key, value in entry.items():
                    if key != "winner" and value is not None:
                        _check_kind(f"winners[{i}].{key}", hand_kinds()[key], value)
                seat = _player(entry["winner"], f"winners[{i}].winner:", players)
            except MjcalcError as err:
                raise (err.about_winner(players[known]) if known is not None else err) from None
            wins.append(_Win(seat, {k: v for k, v in entry.items() if k != "winner" and v is not None}, named=True))
        if len({w.seat for w in wins}) != len(wins):
            raise _fail("bad_field", "winners: a player is named twice")
        if len(wins) > 1 and (discarder is None or f.get("self_draw")):
            raise _fail("missing_discarder", "several winners (一炮多响) win one discard: name the discarder")
    results: list[Scored] = []
    transfers: list[Transfer] = []
    liability: list[tuple[int, str, str, str, int]] = []
    for w in wins:
        try:
            result, pays, rows = _win_one(game, state, w, discarder, f)
        except MjcalcError as err:
            if not w.named:
                raise
            raise err.about_winner(players[w.seat]) from None
        results.append(result)
        moves_chips = _moves_chips(result.result, opt)
        transfers += [Transfer(payer, w.seat, amount, moves_chips) for payer, amount in pays if amount]
        liability += rows
    _check_copies(game, f, wins)
    chips_start = state.chips
    transfers, chips_after = apply_chips(transfers, chips_start)
    changes = [0, 0, 0, 0]
    for t in transfers:
        changes[t.payer] -= t.amount
        changes[t.to] += t.amount
    totals = tuple(a + b for a, b in zip(state.totals, changes, strict=True))
    ended = state.ended_at
    if chips_after is not None and min(chips_after) <= 0:
        ended = raw.no
    seats = tuple(w.seat for w in wins)
    new = State(next_dealer(state.dealer, seats, opt), totals, chips_after, ended)  # type: ignore[arg-type]
    self_draw = any([f.get(name) for name in hand_fields.game_fields().drawn])
    return new, HandRow(
        raw.no,
        state.dealer,
        winners=seats,
        discarder=discarder,
        self_draw=self_draw,
        results=tuple(results),
        changes=tuple(changes),  # type: ignore[arg-type]
        liability=tuple(liability),
        chips_after=chips_after,
        transfers=tuple(transfers),
    )


def _moves_chips(result: ScoreResult | RowResult, opt: Any) -> bool:
    """交算输赢分，不扣底分: a 交 win moves the score only, unless `jiao_chips: chips_too`."""
    return not ("jiao" in result.patterns and getattr(opt, "jiao_chips", "chips_too") == "score_only")


def start(game: GameFile) -> State:
    """The standings before the first hand."""
    opt = settlement_options(game.ruleset)
    chips = game.chips if game.chips is not None else (opt.chips or None)
    return State(game.dealer, (0, 0, 0, 0), (chips,) * 4 if chips else None)


class Fold:
    """`settle_game` one row at a time: iterate once for the rows; then `state` and `transfers` are the end.

    Nothing but the standings is kept between hands, so a game of millions of hands
    settles in the memory of one.
    """

    def __init__(self, game: GameFile, hands: Iterable[RawHand] | None = None) -> None:
        self.game = game
        self.hands = game.hands if hands is None else hands
        self.state = start(game)
        self.failed = False

    def __iter__(self) -> Iterator[HandRow]:
        for raw in self.hands:
            self.state, row = step(self.game, self.state, raw)
            if raw.extra is not None:
                row = replace(row, extra=raw.extra)
            self.failed = self.failed or row.error is not None
            yield row

    @property
    def transfers(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(fewest_transfers(self.state.totals))


def settle_game(game: GameFile, hands: Iterable[RawHand] | None = None) -> Report:
    """Fold `step` over the hands: every hand's row, the final standings, the fewest transfers."""
    fold = Fold(game, hands)
    rows = tuple(fold)
    return Report(game, rows, fold.state, fold.transfers)
