"""The facts of a win: the tiles (Hand) and how it was won (WinContext)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from .errors import InputError
from .tiles import format_tiles, is_honour, parse_tile, parse_tiles, tile_str

Seat = Literal["next", "opposite", "previous"]
SEATS: tuple[Seat, ...] = get_args(Seat)
MeldKind = Literal["pung", "kong", "chow"]


@dataclass(frozen=True)
class Meld:
    """A declared set: exposed pung/kong/chow, or a concealed kong."""

    kind: MeldKind
    tiles: tuple[int, ...]
    concealed: bool = False

    @property
    def first(self) -> int:
        return self.tiles[0]

    def notation(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (winning tile included), declared melds and the winning tile."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int

    @property
    def all_tiles(self) -> tuple[int, ...]:
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    def to_dict(self) -> dict[str, object]:
        return {
            "concealed": format_tiles(self.concealed),
            "melds": [
                {"kind": m.kind, "tiles": m.notation(), "concealed": m.concealed} for m in self.melds
            ],
            "win": tile_str(self.win_tile),
        }


@dataclass(frozen=True)
class WinContext:
    """How the hand was won. Variant-specific facts default to 'absent'."""

    self_draw: bool = False
    dealer: bool = False
    after_kong: bool = False
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    discarder: Seat | None = None
    dealer_seat: Seat | None = None
    wild: int | None = None
    piao: int = 0
    opponent_pungs: tuple[int, int, int] | None = field(default=None)
    robbed_fan: int | None = None  # 抢杠: the 番 of the robbed player's own hand (Pujiang)


def parse_meld(text: str, concealed: bool = False) -> Meld:
    """'555p' pung, '5555p' kong, '123m' chow; a concealed meld must be a kong."""
    flag = "--concealed-kong" if concealed else "--meld"
    tiles = sorted(parse_tiles(text))
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return Meld("kong", tuple(tiles), concealed)
    if not concealed and len(tiles) == 3:
        if len(set(tiles)) == 1:
            return Meld("pung", tuple(tiles))
        a, b, c = tiles
        if not is_honour(a) and a // 9 == c // 9 and b == a + 1 and c == a + 2:
            return Meld("chow", tuple(tiles))
    if not concealed and len(tiles) == 3 and all(is_honour(t) for t in tiles):
        raise InputError("bad_meld", f"{flag} {text!r}: honours cannot form a chow (吃); only pungs and kongs")
    shape = "four identical tiles" if concealed else "a pung (555p), a kong (5555p) or a chow (123m)"
    raise InputError("bad_meld", f"{flag} {text!r} is not {shape}")


def seat(value: str | None, flag: str = "--discarder") -> Seat | None:
    if value is None:
        return None
    if value not in SEATS:
        raise InputError("bad_seat", f"{flag} must be one of {', '.join(SEATS)}, not {value!r}")
    return value  # type: ignore[return-value]


def build_hand(
    text: str,
    melds: Sequence[str] = (),
    concealed_kongs: Sequence[str] = (),
    win: str | None = None,
) -> Hand:
    """Parse and check the variant-independent shape: 14 tiles (kongs count 3), ≤4 copies."""
    concealed = parse_tiles(text)
    if not concealed:
        raise InputError("empty_hand", "the hand has no tiles")
    parsed = tuple(parse_meld(m) for m in melds) + tuple(parse_meld(k, concealed=True) for k in concealed_kongs)
    expected = 14 - 3 * len(parsed)
    if len(concealed) != expected:
        raise InputError(
            "wrong_tile_count",
            f"the hand has {len(concealed)} concealed tiles; with {len(parsed)} meld(s) it needs {expected}",
        )
    win_tile = parse_tile(win) if win is not None else concealed[-1]
    if win_tile not in concealed:
        raise InputError("win_tile_not_in_hand", f"winning tile {tile_str(win_tile)} is not among the concealed tiles")
    hand = Hand(tuple(concealed), parsed, win_tile)
    counts: dict[int, int] = {}
    for t in hand.all_tiles:
        counts[t] = counts.get(t, 0) + 1
    for t, n in sorted(counts.items()):
        if n > 4:
            raise InputError("too_many_copies", f"{tile_str(t)} appears {n} times across hand and melds; there are only 4")
    return hand


def make_context(
    *,
    self_draw: bool = False,
    dealer: bool = False,
    after_kong: bool = False,
    robbing_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    discarder: str | None = None,
    dealer_seat: str | None = None,
    wild: str | None = None,
    piao: int = 0,
    opponent_pungs: Sequence[int] | str | None = None,
    robbed_fan: int | None = None,
) -> WinContext:
    """Check that the flags describe one possible win; implied flags are filled in."""
    pairs = [
        (heavenly and earthly, "--heavenly and --earthly"),
        (self_draw and discarder is not None, "--self-draw and --discarder"),
        (robbing_kong and self_draw, "--robbing-kong and --self-draw"),
        (robbing_kong and after_kong, "--robbing-kong and --after-kong"),
        (robbing_kong and (heavenly or earthly), "--robbing-kong and --heavenly/--earthly"),
        (after_kong and discarder is not None, "--after-kong and --discarder"),
        (heavenly and discarder is not None, "--heavenly and --discarder"),
        (dealer and dealer_seat is not None, "--dealer and --dealer-seat"),
    ]
    for clash, names in pairs:
        if clash:
            raise InputError("conflicting_flags", f"{names} cannot both be given")
    if piao < 0:
        raise InputError("bad_piao", f"--piao must be 0 or more, not {piao}")
    if robbed_fan is not None and robbed_fan < 0:
        raise InputError("bad_robbed_fan", f"--robbed-fan must be 0 or more, not {robbed_fan}")
    if robbed_fan is not None and not robbing_kong:
        raise InputError("conflicting_flags", "--robbed-fan is the 番 of a robbed player: it needs --robbing-kong")
    return WinContext(
        self_draw=self_draw or after_kong or heavenly,
        dealer=dealer,
        after_kong=after_kong,
        robbing_kong=robbing_kong,
        heavenly=heavenly,
        earthly=earthly,
        discarder=seat(discarder),
        dealer_seat=seat(dealer_seat, "--dealer-seat"),
        wild=parse_tile(wild) if wild is not None else None,
        piao=piao,
        opponent_pungs=parse_opponent_pungs(opponent_pungs),
        robbed_fan=robbed_fan,
    )


def parse_opponent_pungs(value: Sequence[int] | str | None) -> tuple[int, int, int] | None:
    """'2,0,1' (next, opposite, previous) → (2, 0, 1)."""
    if value is None:
        return None
    parts: list[object] = value.split(",") if isinstance(value, str) else list(value)
    try:
        numbers = tuple(int(str(p).strip()) for p in parts)
    except ValueError:
        numbers = ()
    if len(numbers) != 3 or min(numbers) < 0:
        raise InputError(
            "bad_opponent_pungs",
            f"--opponent-pungs takes three counts NEXT,OPPOSITE,PREVIOUS such as 2,0,1, not {value!r}",
        )
    return numbers  # type: ignore[return-value]
