"""A season's statistics: games folded hand by hand, counted per player and per pattern.

`Season.add(game, name, date)` settles one game (the same fold as `game settle`) and counts
its hands; `season_dict` is the `mjcalc stats --json` contract. Error rows (a bad hand, a
hand after the 子 ran out) count for nothing but `errors`. Games of one ruleset share one
cache of scored hands, so a season of many short games scores each distinct hand once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ..core.errors import InputError, shown
from ..core.result import ScoreResult
from ..core.seats import absolute
from ..core.words import N_
from ..rules.ruleset import Ruleset
from .engine import Fold
from .game_file import GameFile


@dataclass
class Biggest:
    """A player's biggest win: its value, its result, and where it was."""

    value: int
    result: ScoreResult
    variant: str
    game: str
    date: str | None
    no: int


COUNT_KEYS = ("games", "hands", "wins", "self_draws", "deal_ins", "draws", "net", "liability_paid", "liability_received")


@dataclass
class Counts:
    """One player's counts, over the season or within one variant."""

    games: int = 0
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0  # the discarder of a win (once a hand, however many won on it)
    draws: int = 0
    net: int = 0
    liability_paid: int = 0  # what they paid for others, as the liable player (包牌, 承包, ...)
    liability_received: int = 0  # what liable players paid to them, as the winner
    win_value: int = 0  # the sum of their wins' values (mean = win_value / wins)

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    @property
    def deal_in_rate(self) -> float:
        return self.deal_ins / self.hands if self.hands else 0.0

    @property
    def mean_win(self) -> float:
        return self.win_value / self.wins if self.wins else 0.0

    def merge(self, other: Counts) -> None:
        """Add `other`'s counts to these (each field of a Counts, not a subclass's others)."""
        for name in _COUNT_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))


_COUNT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Counts))


@dataclass
class PlayerStats(Counts):
    """One player's counts over the season (`net` adds every game's points, whatever its variant), each
    variant's apart (`by_variant`: points of different variants are not one currency), and the biggest win."""

    biggest: Biggest | None = None
    by_variant: dict[str, Counts] = field(default_factory=dict)


@dataclass(frozen=True)
class GameLine:
    """One game of the season, for the standings over time: its name, date, variant and totals."""

    game: str
    date: str | None
    totals: dict[str, int]
    variant: str = ""


@dataclass
class Season:
    """The statistics of the games added so far: counters only, so memory stays flat however many
    games stream by (`history`, one line a game, only when `keep_history` asks for it)."""

    players: dict[str, PlayerStats] = field(default_factory=dict)
    patterns: dict[str, Counter[str]] = field(default_factory=dict)  # variant -> pattern key -> wins with it
    games: int = 0
    hands: int = 0
    errors: int = 0  # hands that are error rows, counted for nothing else
    error_codes: Counter[str] = field(default_factory=Counter)  # error rows per code
    first_errors: dict[str, str] = field(default_factory=dict)  # code -> where and what its first error row was
    left_out: list[tuple[str, int, int | None]] = field(default_factory=list)  # each error row's game, number and line
    variant_games: Counter[str] = field(default_factory=Counter)  # variant -> games
    variant_hands: Counter[str] = field(default_factory=Counter)
    keep_history: bool = False
    history: list[GameLine] = field(default_factory=list)
    rulesets: dict[str, Ruleset[Any, Any, Any]] = field(default_factory=dict)  # variant name -> ruleset (for names)

    def add(self, game: GameFile, name: str, date: str | None = None) -> None:
        """Settle one game and count its hands; `name` says which game it is (in `biggest`)."""
        variant = game.ruleset.name
        self.rulesets.setdefault(variant, game.ruleset)
        names = game.players
        players = [self.players.setdefault(p, PlayerStats()) for p in names]
        people = [Counts() for _ in names]  # this game's counts, added to the season's at its end
        patterns = self.patterns.setdefault(variant, Counter())
        hands = draws = 0  # every player's hands and draws in this game
        fold = Fold(game)
        for row in fold:
            if row.error is not None:
                self.errors += 1
                self.error_codes[row.error.code] += 1
                self.first_errors.setdefault(row.error.code, f"{name}: hand {row.no}: {row.error.message}")
                self.left_out.append((name, row.no, row.line))
                continue
            hands += 1
            if row.draw:
                draws += 1
                continue
            if row.discarder is not None and not row.self_draw:
                people[row.discarder].deal_ins += 1
            for seat, scored in zip(row.winners, row.results, strict=True):
                winner = people[seat]
                result = scored.result
                winner.wins += 1
                winner.self_draws += row.self_draw
                winner.win_value += result.value
                best = players[seat].biggest
                if best is None or result.value > best.value:
                    players[seat].biggest = Biggest(result.value, result, variant, name, date, row.no)
                patterns.update(result.patterns)
                for liable in scored.settled.liability:
                    people[absolute(seat, liable.payer)].liability_paid += liable.amount  # type: ignore[arg-type]
                    winner.liability_received += liable.amount
        for player, person, total in zip(players, people, fold.state.totals, strict=True):
            person.games, person.hands, person.draws = 1, hands, draws
            person.net = total
            player.merge(person)
            player.by_variant.setdefault(variant, Counts()).merge(person)
        self.games += 1
        self.hands += hands
        self.variant_games[variant] += 1
        self.variant_hands[variant] += hands
        if self.keep_history:
            self.history.append(GameLine(name, date, dict(zip(names, fold.state.totals, strict=True)), variant))

    def standings(self, variant: str) -> list[tuple[str, Counts]]:
        """The players of `variant`'s games with their counts in it, the best net first."""
        rows = [(n, p.by_variant[variant]) for n, p in self.players.items() if variant in p.by_variant]
        return sorted(rows, key=lambda row: -row[1].net)


def biggest_dict(big: Biggest | None) -> dict[str, Any] | None:
    """A biggest win as JSON: value, hand (as `score --json` gives it), patterns, variant, game, date, no."""
    if big is None:
        return None
    return {"value": big.value, "hand": big.result.hand.to_dict(), "patterns": list(big.result.patterns), "variant": big.variant,
            "game": big.game, "date": big.date, "no": big.no}


def counts_dict(c: Counts) -> dict[str, int]:
    return {k: getattr(c, k) for k in COUNT_KEYS}


def player_dict(p: PlayerStats) -> dict[str, Any]:
    """A player's counts over the season, their biggest win, and `by_variant`: the counts within each variant."""
    return {**counts_dict(p), "biggest": biggest_dict(p.biggest), "by_variant": {v: counts_dict(c) for v, c in p.by_variant.items()}}


def season_dict(season: Season, player: str | None = None) -> dict[str, Any]:
    """`mjcalc stats --json`: {"players": {name: {...}}, "patterns": {variant: {key: n}}, "games": N,
    "variants": {variant: {"games", "hands", "standings": [{"player", "net"}, ...] (best first)}}}."""
    names = [player] if player is not None else list(season.players)
    return {
        "players": {n: player_dict(season.players[n]) for n in names},
        "patterns": {v: dict(c.most_common()) for v, c in season.patterns.items() if c},
        "games": season.games,
        "variants": {v: {"games": n, "hands": season.variant_hands[v],
                         "standings": [{"player": name, "net": c.net} for name, c in season.standings(v) if player in (None, name)]}
                     for v, n in season.variant_games.items()},
        "complete": not season.left_out,
        "left_out": left_out_dicts(season),
    }


def left_out_dicts(season: Season) -> list[dict[str, Any]]:
    """Each hand the season left out (an error row): its game, number and line (null where not known)."""
    return [{"game": game, "no": no, "line": line} for game, no, line in season.left_out]


def parse_day(value: str | None, name: str) -> str | None:
    """A `--since`/`--until` date, YYYY-MM-DD (None: not given)."""
    from .game_file import read_date

    if not value:
        return None
    read = read_date(value)  # 2026-12-05, or a spreadsheet's 2026/12/5, 2026.12.5, 2026年12月5日
    if read is None:
        raise InputError("bad_date", "{name}: {value} is not a date YYYY-MM-DD", name=name, value=shown(value))
    return read[:10]


def within(date: str | None, start: str | None, end: str | None) -> bool | None:
    """Whether a game of `date` is selected by `start`..`end` (inclusive); None: it has no date and a range is given."""
    if start is None and end is None:
        return True
    if date is None:
        return None
    day = date[:10]
    return (start is None or day >= start) and (end is None or day <= end)


def check_player(season: Season, player: str) -> None:
    if player not in season.players:
        players = N_(" (players: {players})", players=", ".join(season.players)) if season.players else ""
        raise InputError("unknown_player", "--player: {player!r} played in none of the selected games{players}", player=player, players=players)


CSV_COLUMNS = ("player", "games", "hands", "wins", "self_draws", "deal_ins", "draws", "win_rate", "deal_in_rate", "mean_win",
               "net", "liability_paid", "liability_received", "biggest_value", "biggest_patterns", "biggest_game", "biggest_no", "variant")


def csv_rows(season: Season, names: Sequence[str]) -> list[list[Any]]:
    """`mjcalc stats --csv`: a header, then one row per player and variant (one per player in a season of one
    variant): a row's counts and net are within its `variant`; the biggest win is on the row of its variant."""
    rows: list[list[Any]] = [list(CSV_COLUMNS)]
    for n in names:
        player = season.players[n]
        big = player.biggest
        for variant, c in player.by_variant.items():
            mine = big if big is not None and big.variant == variant else None
            rows.append([n, c.games, c.hands, c.wins, c.self_draws, c.deal_ins, c.draws, f"{c.win_rate:.3f}", f"{c.deal_in_rate:.3f}",
                         f"{c.mean_win:.1f}", c.net, c.liability_paid, c.liability_received,
                         "" if mine is None else mine.value, "" if mine is None else " ".join(mine.result.patterns),
                         "" if mine is None else mine.game, "" if mine is None else mine.no, variant])
    return rows


def _row(name: str, c: Counts) -> dict[str, Any]:
    return {"player": name, **counts_dict(c), "win_rate": c.win_rate, "deal_in_rate": c.deal_in_rate, "mean_win": c.mean_win}


def view(season: Season, names: Sequence[str]) -> dict[str, Any]:
    """What the stats table shows, as plain data (the present floor lays it out): each variant's standings
    (its players' counts and rates in it), each player's biggest win, and each variant's patterns with their names."""
    chosen = set(names)
    standings = [{"variant": v, "games": n, "hands": season.variant_hands[v],
                  "players": [_row(name, c) for name, c in season.standings(v) if name in chosen]}
                 for v, n in season.variant_games.items()]
    players = []
    for n in names:
        p = season.players[n]
        row = {"player": n, "net": p.net, "biggest": biggest_dict(p.biggest)}
        big = p.biggest
        if big is not None:
            rs = season.rulesets[big.variant]
            row["biggest"] = {**(biggest_dict(big) or {}), "names": [rs.label(k) for k in big.result.patterns]}
        players.append(row)
    patterns = []
    for variant, counts in season.patterns.items():
        rs = season.rulesets[variant]
        patterns += [{"variant": variant, "key": key, "names": rs.label(key), "wins": n} for key, n in counts.most_common()]
    return {"standings": standings, "players": players, "patterns": patterns, "games": season.games, "hands": season.hands,
            "left_out": left_out_dicts(season)}
