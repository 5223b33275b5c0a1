"""Benchmark `mjcalc game settle` on a long game (the target: 10,000 hands in under 2 s).

    python bench/game.py                 # 10,000 hands, Wuhu 315
    python bench/game.py --hands 50000 --variant chizhou

A seeded random game: random legal hands (pair + four sets, 八支 where the variant needs
it), random winners, discarders and meld sources, one hand in twelve drawn, and 子 large
enough that the game does not end. Figures: the whole process (`mjcalc game settle FILE
--json` to /dev/null, median of --runs), and the library fold alone (`settle_game`).
Nothing is asserted; it prints what it measured.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mahjong_calc.api.score import score
from mahjong_calc.core.errors import MjcalcError
from mahjong_calc.core.hand import build_hand, make_context
from mahjong_calc.game import read_game, settle_game
from mahjong_calc.rules.loader import load_ruleset

PLAYERS = ["王", "李", "张", "赵"]
SUITS = "mps"


def random_hand(rng: random.Random, exposed: int) -> tuple[str, list[str]]:
    """A pair and four sets, most of them in one suit; `exposed` of the sets become pungs with sources."""
    main = rng.choice(SUITS)
    counts: dict[str, int] = {}
    sets: list[list[str]] = []
    while len(sets) < 4:
        suit = main if rng.random() < 0.75 else rng.choice(SUITS)
        if rng.random() < 0.5:
            n = rng.randint(1, 9)
            tiles = [f"{n}{suit}"] * 3
        else:
            n = rng.randint(1, 7)
            tiles = [f"{n + i}{suit}" for i in range(3)]
        if all(counts.get(t, 0) + tiles.count(t) <= 4 for t in set(tiles)):
            for t in tiles:
                counts[t] = counts.get(t, 0) + 1
            sets.append(tiles)
    while True:
        pair = f"{rng.randint(1, 9)}{main}"
        if counts.get(pair, 0) <= 2:
            break
    melds = [s for s in sets if len(set(s)) == 1][:exposed]
    concealed = [t for s in sets if s not in melds for t in s] + [pair, pair]
    return "".join(concealed), ["".join(m[:1])[0] * 3 + m[0][1] for m in melds]


def make_game(n: int, variant: str, seed: int) -> list[str]:
    """JSON Lines: a header, then `n` hands that score."""
    rng = random.Random(seed)
    rs = load_ruleset(variant)
    lines = [json.dumps({"variant": variant, "players": PLAYERS, "dealer": "王", "chips": 10**9}, ensure_ascii=False)]
    while len(lines) <= n:
        if rng.random() < 1 / 12:
            lines.append('{"draw": true}')
            continue
        hand, melds = random_hand(rng, rng.randint(0, 3))
        self_draw = rng.random() < 0.4
        try:
            score(build_hand(hand, melds), make_context(self_draw=self_draw, discarder=None if self_draw else "next"), rs)
        except MjcalcError:
            continue
        winner = rng.choice(PLAYERS)
        others = [p for p in PLAYERS if p != winner]
        record: dict[str, object] = {"winner": winner, "hand": hand, "melds": [f"{m}@{rng.choice(others)}" for m in melds]}
        if self_draw:
            record["self_draw"] = True
        else:
            record["discarder"] = rng.choice(others)
        lines.append(json.dumps(record, ensure_ascii=False))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--variant", default="wuhu315", choices=["wuhu315", "wuhu525", "chizhou"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        lines = make_game(args.hands, args.variant, args.seed)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        distinct = len(set(lines[1:]))
        times, cpu = [], []
        for _ in range(args.runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            command = [sys.executable, "-m", "mahjong_calc", "game", "settle", str(path), "--json"]
            proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
            times.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if proc.returncode != 0:
                raise SystemExit(f"mjcalc game settle failed: {proc.stderr.decode()[:500]}")
        start, start_cpu = time.perf_counter(), time.process_time()
        report = settle_game(read_game(str(path)))
        fold, fold_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(f"game settle, {args.variant}: {args.hands:,} hands ({distinct:,} distinct records), {len(report.rows):,} rows")
    print(
        f"  whole process (--json to /dev/null): median {statistics.median(times):.2f} s wall, "
        f"{statistics.median(cpu):.2f} s CPU over {args.runs} runs (min {min(times):.2f} s wall)"
    )
    print(f"  library fold (read_game + settle_game): {fold:.2f} s wall, {fold_cpu:.2f} s CPU, {args.hands / fold:,.0f} hands/s")
    print(f"  load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (a shared machine inflates wall time)")


if __name__ == "__main__":
    main()
