"""The money side of a game: the 子 ledger, who deals next, and the fewest transfers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class Transfer(NamedTuple):
    """`payer` pays `to` an `amount` for one winner of one hand; `chips`: it moves the 子 too."""

    payer: int
    to: int
    amount: int
    chips: bool = True


def apply_chips(transfers: Sequence[Transfer], chips: tuple[int, ...] | None) -> tuple[list[Transfer], tuple[int, ...] | None]:
    """Move the 子; a loser pays only what they have left, and the winner gets that much less.

    Seed 000 §5: 最后一局有几个子就输几个子 (例：玩家还剩3个子，这局输6个子，此时该玩家只输3个子，
    赢的玩家少赢3个子). Transfers that do not move 子 (a 交 under `jiao_chips: score_only`)
    are neither capped nor taken from the 子.
    """
    if chips is None:
        return list(transfers), None
    left = list(chips)
    out: list[Transfer] = []
    for t in transfers:
        if t.chips:
            amount = min(t.amount, max(left[t.payer], 0))
            left[t.payer] -= amount
            left[t.to] += amount
            if amount != t.amount:
                t = Transfer(t.payer, t.to, amount, True)
        out.append(t)
    return out, tuple(left)


def next_dealer(dealer: int, winners: Sequence[int], opt: Any) -> int:
    """Who deals the next hand, by the variant's `dealer_after_win` / `dealer_after_draw`."""
    if not winners:
        return dealer if opt.dealer_after_draw == "stay" else (dealer + 1) % 4
    rule = opt.dealer_after_win
    if rule == "winner":
        return winners[0]
    if rule == "stay_if_dealer_else_next" and dealer in winners:
        return dealer
    return (dealer + 1) % 4


EXACT_PLAYERS = 10  # the exact split costs 3**n steps: beyond this many balances, settle greedily


def fewest_transfers(totals: Sequence[int]) -> list[tuple[int, int, int]]:
    """(from, to, amount) settling `totals` (which sum to 0) in the fewest transfers.

    n players with a non-zero balance need n − k transfers, where k is the largest
    number of groups the balances split into that each sum to zero; the split is
    found exactly (a table has four players, a season's totals up to EXACT_PLAYERS), then
    each group is settled greedily. Over EXACT_PLAYERS balances (a big club's season) the
    whole is settled greedily: at most n − 1 transfers.
    """
    people = [i for i, v in enumerate(totals) if v]
    n = len(people)
    if n > EXACT_PLAYERS:
        if sum(totals):
            raise ValueError(f"totals {list(totals)} do not sum to zero")
        return sorted(_greedy({p: totals[p] for p in people}), key=lambda t: (-t[2], t[0], t[1]))
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + totals[people[low]]
    best = [0] * (1 << n)  # the most zero-sum groups a set splits into (-1: none)
    choice = [0] * (1 << n)
    for mask in range(1, 1 << n):
        best[mask] = -1
        if sums[mask] != 0:
            continue
        sub = mask
        while sub:
            rest = mask ^ sub
            if sums[sub] == 0 and best[rest] >= 0 and best[rest] + 1 > best[mask]:
                best[mask], choice[mask] = best[rest] + 1, sub
            sub = (sub - 1) & mask
    out: list[tuple[int, int, int]] = []
    mask = (1 << n) - 1
    if n and best[mask] < 0:  # the totals do not sum to zero: a bug upstream
        raise ValueError(f"totals {list(totals)} do not sum to zero")
    while mask:
        group = [people[i] for i in range(n) if choice[mask] >> i & 1]
        out += _greedy({p: totals[p] for p in group})
        mask ^= choice[mask]
    return sorted(out, key=lambda t: (-t[2], t[0], t[1]))


def _greedy(balance: dict[int, int]) -> list[tuple[int, int, int]]:
    """Settle one zero-sum group: the biggest debtor pays the biggest creditor, until square."""
    bal = dict(balance)
    out = []
    while any(bal.values()):
        debtor = min(bal, key=lambda p: (bal[p], p))
        creditor = max(bal, key=lambda p: (bal[p], -p))
        amount = min(-bal[debtor], bal[creditor])
        out.append((debtor, creditor, amount))
        bal[debtor] += amount
        bal[creditor] -= amount
    return out


def season_totals(games: Sequence[tuple[Sequence[str], Sequence[int]]]) -> dict[str, int]:
    """Each player's total over several games ((players, totals) each), in the order players first appear."""
    out: dict[str, int] = {}
    for players, totals in games:
        for name, n in zip(players, totals, strict=True):
            out[name] = out.get(name, 0) + n
    return out
