"""A game is a fold over its hands: `step(game, state, hand) -> (state, row)`.

For each hand the engine works out who deals and who won; each winner is scored and settled
by winner.py (what a player would otherwise type: each payer's seat relative to the winner,
who fed each meld, the Pujiang pungs of each payer); then the totals, the 子 ledger and the
deal move on. The standings are `reduce(step, hands, start)`: a game stored as its hands
alone always settles to the same totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..api.settle import settlement_options
from ..core.errors import MjcalcError
from ..core.hand import check_table_copies, parse_meld
from ..core.result import ScoreResult
from ..core.seats import seat_index, split_source
from ..core.tiles import parse_tile, parse_tiles
from ..core.words import N_
from . import fields as hand_fields
from .fields import check_kind, fields_of, hand_error, hand_kinds, player_seat, winner_fields
from .game_file import GameFile, RawHand
from .ledger import Transfer, apply_chips, fewest_transfers, next_dealer
from .winner import Scored, Win, win_one


@dataclass(frozen=True)
class State:
    """The standings after some hands: who deals next, the win/loss totals, the 子, the end.

    `unsure`: who may deal next, when an earlier hand's winner could not be read (`dealer` is then
    the first of them, and means nothing); `unread`: that hand's (number, line).
    """

    dealer: int
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)
    chips: tuple[int, ...] | None = None
    ended_at: int | None = None
    unsure: tuple[int, ...] = ()
    unread: tuple[int, int | None] | None = None


@dataclass(frozen=True)
class HandRow:
    """One hand, settled (or its error), in absolute seats 0..3."""

    no: int
    dealer: int | None  # None: nobody can tell who dealt (an earlier hand's winner is unreadable), and the hand's value does not depend on it
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
    note: str | None = None  # the hand's own note (a spreadsheet's note column), kept as written
    line: int | None = None  # where the hand starts in its file, when known


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

    @property
    def left_out(self) -> list[tuple[int, int | None]]:
        """The (number, line) of each hand that is an error row: the totals are not final while there is one."""
        return [(r.no, r.line) for r in self.rows if r.error is not None]


# --- one hand -----------------------------------------------------------------------




def _check_copies(game: GameFile, shared: Mapping[str, Any], wins: Sequence[Win]) -> None:
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
    owners = sorted((player_seat(name, "exposed:", players), texts) for name, texts in exposed.items())  # in seat order
    shown += [(f"{players[owner]}'s melds", tiles_of(texts)) for owner, texts in owners]
    indicator = 4 - getattr(game.ruleset.numbers, "wild_copies", 4)
    shown += [("the 财神 indicator", [parse_tile(wild)] * indicator) for wild in wilds]
    check_table_copies(shown)


def step(game: GameFile, state: State, raw: RawHand) -> tuple[State, HandRow]:
    """Settle one hand: the new standings and the hand's row. A bad hand changes nothing but the deal,
    which passes on as its winner (or draw) says; when not even that can be read, who deals next is unsure."""
    try:
        if raw.error is not None:
            raise raw.error
        if state.ended_at is not None:
            raise hand_error("game_over", "the game ended at hand {ended_at}, when a player's 子 ran out; to go on, give the game "
                        "its 子 (a `chips` header field or CSV column; `chips: 0` keeps no 子 ledger) or begin the next sitting "
                        "as a new game (a new `game` id in a CSV log)", ended_at=state.ended_at)
        return _step_unsure(game, state, raw) if state.unsure else _step(game, state, raw)
    except MjcalcError as err:
        dealer = None if state.unsure else state.dealer
        return _deal_after_error(game, state, raw), HandRow(raw.no, dealer, chips_after=state.chips, error=err, note=_note(raw), line=raw.line)


def _note(raw: RawHand) -> str | None:
    value = raw.value
    note = value.get("note") if type(value) is dict else None
    return note if isinstance(note, str) and note else None


def _options(game: GameFile) -> Any:
    return settlement_options(game.ruleset)


def _winners_read(game: GameFile, value: Any) -> tuple[int, ...] | None:
    """Who won a hand that is an error row, as far as its record still says it: () for a drawn hand,
    the winners' seats, or None when that cannot be read (then nobody knows who deals next)."""
    if not isinstance(value, dict):
        return None
    draw, winner, winners = value.get("draw"), value.get("winner"), value.get("winners")
    if draw is not None and not isinstance(draw, bool):
        return None
    if draw:
        return () if winner is None and winners is None else None
    players = game.players
    if winner is not None:
        seat = seat_index(winner, players) if isinstance(winner, str) and winners is None else None
        return None if seat is None else (seat,)
    if not isinstance(winners, list) or not winners or (len(winners) > 1 and not _options(game).multiple_winners):
        return None
    seats = [seat_index(e["winner"], players) if isinstance(e, dict) and isinstance(e.get("winner"), str) else None for e in winners]
    if None in seats or len(set(seats)) != len(seats):
        return None
    return tuple(s for s in seats if s is not None)


def _deal_after_error(game: GameFile, state: State, raw: RawHand) -> State:
    """The standings after an error row: the same, but the deal passes on as the hand's winner (or draw)
    says; a winner that cannot be read leaves who deals next unsure (each dealer any outcome could give)."""
    if state.ended_at is not None:
        return state
    opt = _options(game)
    winners = _winners_read(game, raw.value)
    now = state.unsure or (state.dealer,)
    outcomes: tuple[tuple[int, ...], ...] = ((), (0,), (1,), (2,), (3,)) if winners is None else (winners,)
    unread = state.unread if state.unread is not None or winners is not None else (raw.no, raw.line)
    return _dealt(state, sorted({next_dealer(d, w, opt) for d in now for w in outcomes}), unread)


def _dealt(state: State, dealers: list[int], unread: tuple[int, int | None] | None) -> State:
    """`state` with the next dealer: one known, or several that may be."""
    if len(dealers) == 1:
        return replace(state, dealer=dealers[0], unsure=(), unread=None)
    return replace(state, dealer=dealers[0], unsure=tuple(dealers), unread=unread)


def _money(row: HandRow) -> tuple[Any, ...]:
    return row.changes, row.liability, row.chips_after, tuple([r.result.value for r in row.results])


def _step_unsure(game: GameFile, state: State, raw: RawHand) -> tuple[State, HandRow]:
    """A hand while who deals is unsure: settled if its record names the dealer, or if its money is the same
    whoever of them deals (its row then names no dealer); else an error row naming the hand to fix."""
    said = raw.value.get("dealer") if isinstance(raw.value, dict) else None
    seat = seat_index(said, game.players) if isinstance(said, str) else None
    if seat is not None and seat in state.unsure:  # the record says who deals: the deal is known again
        return _step(game, replace(state, dealer=seat, unsure=(), unread=None), raw)
    done: list[tuple[State, HandRow]] = []
    errors: list[MjcalcError] = []
    for dealer in state.unsure:
        try:
            done.append(_step(game, replace(state, dealer=dealer, unsure=(), unread=None), raw))
        except MjcalcError as err:
            errors.append(err)
    if not done:
        raise errors[0]  # wrong whoever deals: the hand's own error
    if errors or len({_money(row) for _, row in done}) > 1:
        assert state.unread is not None
        no, line = state.unread
        where = N_("line {line}", line=line) if line is not None else N_("hand {no}", no=no)
        raise hand_error("dealer_unknown", "who deals this hand depends on {where}, whose winner cannot be read, and what this hand pays depends on "
                         "who deals: fix {where} (its winner, or draw: true), or name this hand's dealer", where=where)
    new, row = done[0]
    return _dealt(new, sorted({s.dealer for s, _ in done}), state.unread), replace(row, dealer=None)


def _step(game: GameFile, state: State, raw: RawHand) -> tuple[State, HandRow]:
    opt = _options(game)
    players = game.players
    f = fields_of(raw.value)
    note = f.pop("note", None) or None
    if "dealer" in f:
        said = player_seat(f.pop("dealer"), "dealer:", players)
        if said != state.dealer:
            raise hand_error("two_dealers", "dealer: the record says {player}, but {dealer} deals this hand", player=players[said],
                             dealer=players[state.dealer])
    f.pop("id", None)
    winners_given = [k for k in ("winner", "winners") if k in f]
    if f.pop("draw", False):
        if winners_given:
            raise hand_error("conflicting_fields", "draw: true and a winner cannot both be given")
        if len(f):
            raise hand_error("conflicting_fields", "a drawn hand (流局) has no {value}", value=', '.join(sorted(f)))
        dealer = next_dealer(state.dealer, (), opt)
        return replace(state, dealer=dealer), HandRow(raw.no, state.dealer, draw=True, chips_after=state.chips, note=note, line=raw.line)
    if len(winners_given) != 1:
        raise hand_error("missing_field", "a hand needs winner: (or winners: where 一炮多响 is allowed), or draw: true")
    discarder = player_seat(f.pop("discarder"), "discarder:", players) if "discarder" in f else None
    if "winner" in f:
        wins = [Win(player_seat(f.pop("winner"), "winner:", players), {})]
    else:
        entries = f.pop("winners")
        if len(entries) > 1 and not opt.multiple_winners:  # the form itself, before any one winner's tiles
            raise hand_error("multiple_winners_not_allowed", "{name} has no 一炮多响: only one player wins a discard", name=game.ruleset.name)
        wins = []
        for i, entry in enumerate(entries):
            known = seat_index(entry["winner"], players) if isinstance(entry.get("winner"), str) else None
            try:
                for key in entry:
                    if key not in winner_fields():
                        raise hand_error("unknown_field", "winners[{i}]: {key!r} is not one winner's field ({winner_fields})",
                            i=i, key=key, winner_fields=', '.join(winner_fields()))
                if "winner" not in entry:
                    raise hand_error("missing_field", "winners[{i}]: name the winner", i=i)
                for key, value in entry.items():
                    if key != "winner" and value is not None:
                        check_kind(f"winners[{i}].{key}", hand_kinds()[key], value)
                seat = player_seat(entry["winner"], f"winners[{i}].winner:", players)
            except MjcalcError as err:
                raise (err.about_winner(players[known]) if known is not None else err) from None
            wins.append(Win(seat, {k: v for k, v in entry.items() if k != "winner" and v is not None}, named=True))
        if len({w.seat for w in wins}) != len(wins):
            raise hand_error("bad_field", "winners: a player is named twice")
        if len(wins) > 1 and (discarder is None or f.get("self_draw")):
            raise hand_error("missing_discarder", "several winners (一炮多响) win one discard: name the discarder")
    results: list[Scored] = []
    transfers: list[Transfer] = []
    liability: list[tuple[int, str, str, str, int]] = []
    for w in wins:
        try:
            result, pays, rows = win_one(game, state.dealer, w, discarder, f)
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
        note=note,
        line=raw.line,
    )


def _moves_chips(result: ScoreResult, opt: Any) -> bool:
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
        self.left_out: list[tuple[int, int | None]] = []  # (number, line) of each error row, in order

    def __iter__(self) -> Iterator[HandRow]:
        for raw in self.hands:
            self.state, row = step(self.game, self.state, raw)
            if raw.extra is not None:
                row = replace(row, extra=raw.extra)
            if row.error is not None:
                self.failed = True
                self.left_out.append((row.no, row.line))
            yield row

    @property
    def transfers(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(fewest_transfers(self.state.totals))


def settle_game(game: GameFile, hands: Iterable[RawHand] | None = None) -> Report:
    """Fold `step` over the hands: every hand's row, the final standings, the fewest transfers."""
    fold = Fold(game, hands)
    rows = tuple(fold)
    return Report(game, rows, fold.state, fold.transfers)
