"""Benchmark `mjcalc game settle` on a long game (the target: 10,000 hands in under 2 s).

    python bench/game.py                 # 10,000 hands, Wuhu 315
    python bench/game.py --hands 50000 --variant chizhou

A seeded random game: random legal hands (pair + four sets, 八支 where the variant needs
it), random winners, discarders and meld sources, one hand in twelve drawn, and 子 large
enough that the game does not end. Figures: the whole process (`mjcalc game settle FILE
--json` to /dev/null, median of --runs), and the library fold alone (`settle_game`).
Nothing is asserted; it prints what it measured.

    python bench/game.py --memory        # peak RSS settling a 1,000,000-hand JSON Lines game
    python bench/game.py --games 10000   # a log of 10,000 one-hand games: the table against --json

`--memory` writes a game of --memory-hands hands (one in three drawn, the rest drawn from
the seeded hands above, in compact JSON, so that it fits the 64 MiB limit of a game file)
and prints the peak RSS of `mjcalc game settle FILE --json > /dev/null`, and of the table
for its first 10,000 hands (Rich lays a table out whole, so the table grows with the game).
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


def compact_game(n: int, variant: str, seed: int) -> list[str]:
    """A JSON Lines game of `n` hands in as few bytes as a game can take: seats, not names, for
    the winner, discarder and sources; one hand in three drawn."""
    rng = random.Random(seed)
    lines = make_game(20_000, variant, seed)
    seat = dict(zip(PLAYERS, "ESWN", strict=True))
    pool = []
    for line in lines[1:]:
        record = json.loads(line)
        if "draw" in record:
            continue
        for key in ("winner", "discarder"):
            if key in record:
                record[key] = seat[record[key]]
        melds = [m.split("@")[0] + "@" + seat[m.split("@")[1]] for m in record.pop("melds")]
        if melds:
            record["melds"] = melds
        pool.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    return [lines[0]] + ['{"draw":true}' if rng.random() < 1 / 3 else rng.choice(pool) for _ in range(n)]


def run_outside_checkout() -> None:
    """Run `python -m mahjong_calc` from outside any checkout, and say which package that is: from
    a checkout's root it imports the source tree (plain Python, nothing compiled) instead of the
    installed package."""
    os.chdir(tempfile.gettempdir())
    status = subprocess.run([sys.executable, "-m", "mahjong_calc", "--version"], capture_output=True, text=True, check=True).stdout
    print(f"  timed: {sys.executable} -m mahjong_calc, {status.splitlines()[-1][:100]}")


def peak_rss(command: list[str]) -> tuple[int, int, float]:
    """(peak RSS in bytes, exit status, wall seconds) of `command` with stdout to /dev/null, in a process of its own."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc, time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]) * 1024, int(out[1]), float(out[2])


def bench_games(games: int, variant: str, seed: int, runs: int) -> None:
    """`game settle` of a JSON Lines log of `games` one-hand games: the table (piped) against --json."""
    rng = random.Random(seed)
    pool = make_game(2_000, variant, seed)[1:]
    lines = []
    for g in range(games):
        lines.append(json.dumps({"variant": variant, "players": PLAYERS, "dealer": PLAYERS[g % 4], "date": f"2026-11-{1 + g % 28:02d}"},
                                ensure_ascii=False))
        lines.append(rng.choice(pool))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"game settle, {variant}: a log of {games:,} one-hand games, piped to /dev/null (median of {runs}):")
        for label, extra in (("--json", ["--json"]), ("table", []), ("table --lang en", ["--lang", "en"])):
            walls, cpus = [], []
            for _ in range(runs):
                start = time.perf_counter()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([sys.executable, "-m", "mahjong_calc", "game", "settle", str(path), *extra],
                               stdout=subprocess.DEVNULL, env={**os.environ, "COLUMNS": ""}, check=False)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                walls.append(time.perf_counter() - start)
                cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            print(f"  {label:16} {statistics.median(walls):6.2f} s wall  {statistics.median(cpus):6.2f} s CPU")


def bench_memory(hands: int, variant: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.jsonl"
        path.write_text("\n".join(compact_game(hands, variant, seed)) + "\n", encoding="utf-8")
        size = path.stat().st_size
        print(f"game settle, {variant}: {hands:,} hands of JSON Lines ({size / 2**20:.1f} MiB), peak RSS of the process:")
        rss, rc, wall = peak_rss([sys.executable, "-m", "mahjong_calc", "game", "settle", str(path), "--json"])
        print(f"  --json  {rss / 2**20:7.1f} MiB  (exit {rc}, {wall:.1f} s wall)")
        # the table is laid out whole by Rich (its column widths need every row): it grows with the game
        short = Path(tmp) / "short.jsonl"
        table_hands = min(hands, 10_000)
        short.write_text("\n".join(path.read_text(encoding="utf-8").splitlines()[: table_hands + 1]) + "\n", encoding="utf-8")
        rss, rc, wall = peak_rss([sys.executable, "-m", "mahjong_calc", "game", "settle", str(short)])
        print(f"  table   {rss / 2**20:7.1f} MiB  for the first {table_hands:,} hands (exit {rc}, {wall:.1f} s wall)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--variant", default="wuhu315", choices=["wuhu315", "wuhu525", "chizhou"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--memory", action="store_true", help="measure the peak RSS of a long game instead")
    parser.add_argument("--memory-hands", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=0, help="time the table of a log of this many one-hand games instead")
    args = parser.parse_args()
    run_outside_checkout()
    if args.games:
        bench_games(args.games, args.variant, args.seed, min(args.runs, 3))
        return
    if args.memory:
        bench_memory(args.memory_hands, args.variant, args.seed)
        return
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
