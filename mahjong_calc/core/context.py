"""How a hand was won: WinContext, one fact per declared flag, and the relative seats.

Not compiled (see compiled.py): a flag declared by `flags.register_flag` reads as an
attribute through `__getattr__`, which mypyc's classes do not have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from . import flags as flag_table

Seat = Literal["next", "opposite", "previous"]
SEATS: tuple[Seat, ...] = get_args(Seat)


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
    # (name, value) of each flag declared by `flags.register_flag`, which has no attribute above
    registered: tuple[tuple[str, Any], ...] = ()

    if not TYPE_CHECKING:  # a registered flag reads as an attribute too; mypy sees only the declared ones

        def __getattr__(self, name: str) -> Any:
            for key, value in object.__getattribute__(self, "registered"):
                if key == name:
                    return value
            field = flag_table.by_name().get(name)
            if field is not None and field.role == "flag":
                return field.default
            raise AttributeError(name)
