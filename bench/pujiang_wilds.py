"""Time Pujiang hands with wilds (not a test: timings are machine-dependent).

    .venv/bin/python bench/pujiang_wilds.py
"""

from __future__ import annotations

import contextlib
import statistics
import time

from mahjong_calc import score_hand
from mahjong_calc.core.errors import MjcalcError
from mahjong_calc.core.wilds import clear_tables

HANDS: list[tuple[str, dict[str, str]]] = [
    ("111m222p333s77z3m3m4m", {"wild": "3m"}),  # two wilds: 财神头 + a wild pung
    ("111m222p456s99s3m3m7z", {"wild": "3m"}),  # two wilds: pair and set
    ("12m45p78s5z5z99s3m3m11z", {"wild": "3m", "win": "1z"}),  # two wilds and two 白板, not a win
    ("111m222p8p3m3m3m7z5z55s", {"wild": "3m", "win": "7z"}),  # three wilds and a 白板
]


def main(rounds: int = 200) -> None:
    score_hand("111m222p333s456m77z", variant="pujiang")  # load the ruleset once
    for hand, flags in HANDS:
        cold: list[float] = []
        warm: list[float] = []
        for _ in range(rounds):
            clear_tables()
            for bucket in (cold, warm):
                start = time.perf_counter()
                with contextlib.suppress(MjcalcError):
                    score_hand(hand, variant="pujiang", **flags)  # type: ignore[arg-type]
                bucket.append(time.perf_counter() - start)
        print(
            f"{hand:28} cold median {statistics.median(cold) * 1e3:.2f} ms (max {max(cold) * 1e3:.2f}),"
            f" warm median {statistics.median(warm) * 1e3:.2f} ms"
        )


if __name__ == "__main__":
    main()
