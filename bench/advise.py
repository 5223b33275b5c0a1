"""Time `advise`: the full advice for a 14-tile hand (every discard, 有效牌, waits scored).

    .venv/bin/python bench/advise.py [--hands 1000] [--process-runs 11] [--only pujiang:6m] [--cpu]

In process: median and worst over `--hands` seeded random hands of each variant (Pujiang
also with a 财神, and a 白板 that may play as it), from cold caches at the start of each
variant; the ruleset is loaded once beforehand. Whole process: `mjcalc advise` against
`mjcalc score --json`, interleaved, median of `--process-runs`. Run it from outside the
repository (or with the package installed) to time the compiled modules. Targets: median
< 20 ms, worst < 100 ms, whole process within 1.3x of `score`. Printed, never asserted.
`--only VARIANT[:WILD]` times one case; `--cpu` times the in-process calls in CPU time
(`time.process_time`), steadier than the wall clock on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from mahjong_calc import load_ruleset
from mahjong_calc.api.advise import advise_of
from mahjong_calc.compiled import compiled_modules
from mahjong_calc.core.hand import make_context
from mahjong_calc.core.tiles import NUM_TILES, parse_tile
from mahjong_calc.rules.schema import tile_in_variant

CASES: list[tuple[str, str | None]] = [("wuhu315", None), ("wuhu525", None), ("chizhou", None), ("pujiang", None), ("pujiang", "6m")]


def hands(variant: str, wild: str | None, n: int) -> list[list[int]]:
    rs = load_ruleset(variant)
    wall = [t for t in range(NUM_TILES) if tile_in_variant(t, rs.tiles) for _ in range(4)]
    if wild is not None:
        wall.remove(parse_tile(wild))  # the indicator lies face up
    rng = random.Random(f"advise-{variant}-{wild}")
    return [rng.sample(wall, 14) for _ in range(n)]


def in_process(n: int, cases: list[tuple[str, str | None]] = CASES, clock: Callable[[], float] = time.perf_counter) -> None:
    print(f"compiled: {', '.join(compiled_modules()) or 'none'}")
    for variant, wild in cases:
        rs = load_ruleset(variant)
        ctx = make_context(**({"wild": wild} if wild else {}))
        times: list[float] = []
        tenpai = 0
        for tiles in hands(variant, wild, n):
            start = clock()
            advice = advise_of(tiles, (), ctx, rs)
            times.append(clock() - start)
            tenpai += advice.shanten <= 0
        label = variant + (f" 财神 {wild}" if wild else "")
        print(f"{label:18} {n} hands: median {statistics.median(times) * 1e3:6.2f} ms, worst {max(times) * 1e3:6.2f} ms"
              f" (p99 {sorted(times)[int(0.99 * (n - 1))] * 1e3:6.2f} ms; {tenpai} 听牌 or won)")


def whole_process(runs: int) -> None:
    mjcalc = [sys.executable, "-m", "mahjong_calc"]
    commands = {
        "score --json": [*mjcalc, "score", "123456m13m99p555p2m", "--json"],
        "advise --json": [*mjcalc, "advise", "1234567m234p56p99s", "--json"],
        "advise (table)": [*mjcalc, "advise", "1234567m234p56p99s"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    with open(os.devnull, "w") as devnull:
        for _ in range(runs):
            for name, cmd in commands.items():
                start = time.perf_counter()
                subprocess.run(cmd, stdout=devnull, stderr=devnull, check=False, cwd="/")
                times[name].append(time.perf_counter() - start)
    base = statistics.median(times["score --json"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:15} median {median * 1e3:7.1f} ms  ({median / base:.2f}x score --json)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--process-runs", type=int, default=11)
    parser.add_argument("--only", help="one case, VARIANT or VARIANT:WILD (e.g. pujiang:6m); skips the whole-process runs")
    parser.add_argument("--cpu", action="store_true", help="CPU time in process instead of the wall clock")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    if args.only:
        variant, _, wild = args.only.partition(":")
        in_process(args.hands, [(variant, wild or None)], clock)
        return 0
    in_process(args.hands, CASES, clock)
    whole_process(args.process_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
