"""Benchmark `mjcalc stats` over a season (the target: 1,000 games of 16 hands in under 2 s).

    python bench/stats.py                # 1,000 games x 16 hands, Wuhu 315, a club of 8
    python bench/stats.py --games 5000
    python bench/stats.py --memory       # peak RSS of `mjcalc stats FILE --json` at 1,500 and 20,000 games

A seeded season written as JSON Lines with a header line per game (bench/game.py's random
legal hands, each game's four players drawn from the club). Figures: the library alone
(open_games + Season.add for every game, the median of --runs) and the whole process
(`mjcalc stats FILE --json` to /dev/null). Nothing is asserted; it prints what it measured.

`--memory` draws the hands from a pool of 30,000 (a club's hands rarely repeat, so the cache of
scored hands fills) and prints the peak RSS of the whole process at 1,500 and 20,000 games.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from game import PLAYERS, make_game, peak_rss, run_outside_checkout

from mahjong_calc.game.log import open_games
from mahjong_calc.game.stats import Season

CLUB = ["王", "李", "张", "赵", "钱", "孙", "周", "吴"]


def make_season(games: int, hands: int, variant: str, seed: int, pool_size: int = 2_000) -> list[str]:
    rng = random.Random(seed)
    pool = [json.loads(line) for line in make_game(pool_size, variant, seed)[1:]]
    lines = []
    for g in range(games):
        players = rng.sample(CLUB, 4)
        rename = dict(zip(PLAYERS, players, strict=True))
        day = f"2026-{1 + g * 12 // games:02d}-{1 + g % 28:02d}"
        lines.append(json.dumps({"variant": variant, "players": players, "dealer": players[0], "chips": 0, "date": day},
                                ensure_ascii=False))
        for _ in range(hands):
            hand = dict(rng.choice(pool))
            for key in ("winner", "discarder"):
                if key in hand:
                    hand[key] = rename[hand[key]]
            if "melds" in hand:
                hand["melds"] = [m.split("@")[0] + "@" + rename[m.split("@")[1]] for m in hand["melds"]]
            lines.append(json.dumps(hand, ensure_ascii=False))
    return lines


def fold(path: Path) -> Season:
    season = Season()
    games = open_games(str(path))
    for i, game in enumerate(games, 1):
        season.add(game, f"{path.name}#{i}", game.header.get("date"))
    return season


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--variant", default="wuhu315")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--memory", action="store_true", help="peak RSS at 1,500 and 20,000 games, hands from a pool of 30,000")
    args = parser.parse_args()
    run_outside_checkout()
    if args.memory:
        bench_memory(args.hands, args.variant, args.seed)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "season.jsonl"
        path.write_text("\n".join(make_season(args.games, args.hands, args.variant, args.seed)) + "\n", encoding="utf-8")
        print(f"stats, {args.variant}: {args.games:,} games x {args.hands} hands ({path.stat().st_size / 2**20:.1f} MiB of JSON Lines)")
        times, cpu = [], []
        for _ in range(args.runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            season = fold(path)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        print(f"  library (open_games + Season.add): {statistics.median(times):.2f} s wall, {statistics.median(cpu):.2f} s CPU, "
              f"median of {args.runs}; {season.hands:,} hands, {season.errors} error rows")
        walls, cpus = [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-m", "mahjong_calc", "stats", str(path), "--json"], stdout=subprocess.DEVNULL, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            walls.append(time.perf_counter() - start)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        print(f"  mjcalc stats FILE --json: {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s CPU, median of {args.runs}")
        print(f"  load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (a shared machine inflates wall time)")


def bench_memory(hands: int, variant: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for games in (1_500, 20_000):
            path = Path(tmp) / f"season-{games}.jsonl"
            path.write_text("\n".join(make_season(games, hands, variant, seed, 30_000)) + "\n", encoding="utf-8")
            rss, rc, wall = peak_rss([sys.executable, "-m", "mahjong_calc", "stats", str(path), "--json"])
            print(f"stats, {variant}: {games:,} games x {hands} hands ({path.stat().st_size / 2**20:.1f} MiB): "
                  f"peak RSS {rss / 2**20:.1f} MiB (exit {rc}, {wall:.1f} s wall)")


if __name__ == "__main__":
    main()
