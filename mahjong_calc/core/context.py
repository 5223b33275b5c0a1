"""How a hand was won: WinContext, one fact per declared flag, and the relative seats.

Compiled with mypyc (compiled.MODULES): a kernel reads its facts natively.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, final, get_args

Seat = Literal["next", "opposite", "previous"]
SEATS: tuple[Seat, ...] = get_args(Seat)


@final
@dataclass(frozen=True)
class WinContext:
    """How the hand was won: one fact per declared flag (flags.win_flags(); tests/test_flags.py
    checks them field for field). Variant-specific facts default to 'absent'."""

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
    piao_by: Seat | None = None  # another seat in a 飘 round (Pujiang)
    piao_count: int = 0  # that seat's 飘 so far
