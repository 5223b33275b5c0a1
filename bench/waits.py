"""Time `waits`: a 13-tile hand's waits, every one scored both ways (goal: under 50 ms of scoring).

    .venv/bin/python bench/waits.py

"Cold" clears the decomposition caches before each run (a hand never seen before);
"warm" repeats it. The ruleset is loaded once beforehand: that is start-up, not scoring.
"""

from __future__ import annotations

import statistics
import sys
import time

from mahjong_calc import load_ruleset
from mahjong_calc.api.waits import waits_of
from mahjong_calc.core import suits, wilds
from mahjong_calc.core.hand import make_context
from mahjong_calc.core.tiles import parse_tiles

HANDS: list[tuple[str, str, dict[str, str]]] = [
    ("wuhu315", "123456m13m99p555p", {}),  # one wait, 压档
    ("wuhu315", "1112345678999m", {}),  # 九莲: nine waits, 清一色 交
    ("wuhu525", "2345678m2233p55s", {}),  # no 八支: the reason, not a win
    ("chizhou", "123m456p789s1122z", {}),  # two shape waits, too few 花 to win
    ("pujiang", "1112223334445m", {}),  # pungs and a long wait
    ("pujiang", "1112223335678m", {"wild": "9s"}),  # with a 财神 indicator
]


def _clear() -> None:
    suits.clear_suits()
    wilds.clear_tables()


def main(rounds: int = 50) -> int:
    worst = worst_warm = 0.0
    for variant, text, flags in HANDS:
        rs = load_ruleset(variant)
        concealed = parse_tiles(text)
        ctx = make_context(**flags)  # type: ignore[arg-type]
        cold: list[float] = []
        warm: list[float] = []
        waits = ()
        for _ in range(rounds):
            _clear()
            for bucket in (cold, warm):
                start = time.perf_counter()
                result = waits_of(concealed, (), ctx, rs)
                bucket.append(time.perf_counter() - start)
                waits = result.waits
        worst = max(worst, statistics.median(cold))
        worst_warm = max(worst_warm, statistics.median(warm))
        print(
            f"{variant:8} {text:18} {len(waits)} waits; cold median {statistics.median(cold) * 1e3:6.2f} ms"
            f" (max {max(cold) * 1e3:6.2f}), warm median {statistics.median(warm) * 1e3:6.2f} ms"
        )
    print(f"worst cold median: {worst * 1e3:.2f} ms (goal < 50 ms)")
    print(f"worst warm median: {worst_warm * 1e3:.2f} ms")
    return 0 if worst < 0.050 else 1


if __name__ == "__main__":
    sys.exit(main())
