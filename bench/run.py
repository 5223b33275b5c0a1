"""Benchmark mjcalc: batch throughput, the riichi `mahjong` package, start-up, memory.

    pip install -e '.[bench]'
    python bench/run.py                  # 200,000 hands per variant, every figure
    python bench/run.py --hands 50000 --rss-records 0

Figures, all as whole processes except the `mahjong` package's:

1. `mjcalc batch FILE --jobs 1` and `--jobs 2` on seeded random legal Wuhu hands
   (JSON Lines in, JSON Lines out to /dev/null), in interleaved pairs (`--batch-runs`):
   median hands/s and the median ratio; `--jobs 1` again with
   MJCALC_PURE_PYTHON=1 (no compiled module, for contrast); then `--jobs 1` on a
   tenth as many hands of each other shipped variant.
2. `mahjong.hand_calculating.hand.HandCalculator.estimate_hand_value` on as many
   seeded random complete riichi hands, in this process, one `HandConfig` reused (its fastest
   honest use): hands/s, and the ratio; `riichienv` (Rust) on the same hands, printed beside it.
3. `mjcalc score --json` for one hand against a bare Typer hello-world command:
   median wall and CPU time of several runs each, and the ratios (bench/startup.py;
   `--startup-baseline DIR` also times another checkout, e.g. an older commit).
4. Peak RSS of `mjcalc batch` over a file of `--rss-records` records (default 1,000,000),
   and the `--jobs 2` speed-up on that larger file.
5. For contrast, `mjcalc batch --jobs 1` on a log that repeats 1,000 distinct hands,
   where the whole-record result cache answers most records.
6. The library path of the Dask recipe in docs/batch.md, `score_partition` over the same records
   (already parsed, in partitions of 5,000, in a fresh process that imports the package
   the way `mjcalc` does): microseconds a record, against `mjcalc batch --jobs 1`'s.
7. Peak RSS of the whole process tree (parent and workers) of `mjcalc batch` on records
   of about 1 MiB each, for `--jobs` 1, 2 and 4 per CPU (bench/batch_memory.py;
   `--big-scale 0` skips it, 0.2 runs a fifth of the records).
8. The table of the engine's targets (`--only-table` prints it alone): `mjcalc batch --jobs 1`
   on `--table-hands` random hands of each variant (a 财神 in one Pujiang record of three)
   over the `mahjong` package on as many random complete hands, compiled as installed and
   with no compiler, the three interleaved round by round, best of `--table-runs` each (the
   file's hand count and distinct count beside each figure, the load average before and
   after); `mjcalc game settle` of a 10,000-hand game (bench/game.py); `mjcalc stats` of
   1,000 games of 16 hands (bench/stats.py's season); `advise`'s worst Pujiang hand with a
   财神 (bench/advise.py, in process); `mjcalc waits`' worst 13-tile hand, warm
   (bench/waits.py); start-up (bench/startup.py); with `--only-table`, the peak RSS of `mjcalc
   batch` over `--rss-records` records; with `--install`, the time of `pip install .` of a
   fresh clone of HEAD into a new venv (the compiled build).
   "No compiler" runs the installed package with MJCALC_PURE_PYTHON=1 (the plain Python of
   every module mahjong_calc/compiled.py lists, the very files an install without a C
   compiler has); `--no-compiler-python` runs another environment's
   Python instead, e.g. one installed with MJCALC_NO_COMPILE=1.

The package is byte-compiled first (as pip does for a regular install): this
machine sets PYTHONDONTWRITEBYTECODE, so an editable install would otherwise
recompile every module at each start.

Nothing here is asserted; it prints what it measured.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import batch_memory  # noqa: E402  (bench/batch_memory.py, beside this file)
import startup  # noqa: E402  (bench/startup.py, beside this file)

from mahjong_calc.compiled import kernel_compiled  # noqa: E402
from mahjong_calc.core.flags import by_name  # noqa: E402
from mahjong_calc.rules.loader import load_ruleset, shipped_names  # noqa: E402

SEATS = ("next", "opposite", "previous")


# --- random legal hands ---------------------------------------------------------------


def _tile_text(tile: int) -> str:
    return f"{tile % 9 + 1}{'mpsz'[tile // 9]}"


def _tiles_text(tiles: list[int]) -> str:
    return "".join(_tile_text(t) for t in tiles)


def random_hand(rng: random.Random, variant: str) -> dict[str, Any]:
    """A well-formed hand (pair + four sets, ≤4 copies, the variant's tiles) with a random context.

    For Wuhu most hands are built to have 八支 (8+ tiles of one suit), so most are wins.
    """
    rs = load_ruleset(variant)
    tiles_cfg = rs.data["tiles"]
    suits = ["mps".index(s) for s in tiles_cfg["suits"]]
    honours = [26 + n for n in tiles_cfg["honours"]]
    need = rs.data.get("numbers", {}).get("min_zhi", 0)
    while True:
        counts = [0] * 34
        main = rng.choice(suits)
        sets: list[tuple[str, int]] = []
        pair = -1
        pool_suits = [main] * 3 + suits

        def suited(suit: int) -> int:
            return suit * 9 + rng.randrange(9)

        ok = True
        for _ in range(4):
            for _attempt in range(20):
                if honours and rng.random() < 0.05:
                    first, kind = rng.choice(honours), "pung"
                else:
                    suit = rng.choice(pool_suits)
                    kind = "chow" if rng.random() < 0.6 else "pung"
                    first = suit * 9 + rng.randrange(7) if kind == "chow" else suited(suit)
                needed = [first, first + 1, first + 2] if kind == "chow" else [first] * 3
                if all(counts[t] + needed.count(t) <= 4 for t in set(needed)):
                    for t in needed:
                        counts[t] += 1
                    sets.append((kind, first))
                    break
            else:
                ok = False
        for _attempt in range(20):
            candidate = suited(rng.choice(pool_suits))
            if counts[candidate] <= 2:
                pair = candidate
                counts[pair] += 2
                break
        if not ok or pair < 0:
            continue
        if need and max(sum(counts[s * 9 : s * 9 + 9]) for s in range(3)) < need and rng.random() < 0.9:
            continue  # keep about one hand in ten that is not 八支
        break
    melds: list[str] = []
    kongs: list[str] = []
    concealed: list[int] = [pair, pair]
    for kind, first in sets:
        roll = rng.random()
        if kind == "pung" and roll < 0.15:
            melds.append(_tiles_text([first] * 3))
        elif kind == "pung" and roll < 0.2 and counts[first] == 3:
            kongs.append(_tiles_text([first] * 4))
            counts[first] += 1
        elif kind == "chow" and tiles_cfg["chow_melds"] and roll < 0.15:
            melds.append(_tiles_text([first, first + 1, first + 2]))
        else:
            concealed += [first, first + 1, first + 2] if kind == "chow" else [first] * 3
    rng.shuffle(concealed)
    wild = rs.scorer == "pujiang" and rng.random() < 1 / 3
    if wild:  # a 财神 in one Pujiang record of three: one or two of the concealed tiles become it
        tile = rng.choice(concealed)
        for i in rng.sample(range(len(concealed)), rng.randint(1, 2)):
            if concealed.count(tile) < 4:
                concealed[i] = tile
    record: dict[str, Any] = {"variant": variant, "hand": _tiles_text(concealed)}
    if melds:
        record["melds"] = melds
    if kongs:
        record["concealed_kongs"] = kongs
    if wild:
        record["wild"] = _tile_text(tile)
    if rng.random() < (0.8 if rs.scorer == "pujiang" else 0.4):  # Pujiang takes few discard wins
        record["self_draw"] = True
    else:
        record["discarder"] = rng.choice(SEATS)
    _flags_variety(rng, record, rs.scorer, concealed)
    return record


def _takes(flag: str, scorer: str) -> bool:
    variants = by_name()[flag].variants
    return variants is None or scorer in variants


def _flags_variety(rng: random.Random, record: dict[str, Any], scorer: str, concealed: list[int]) -> None:
    """The flags the variant takes, each on now and then (a few clash, which is an answer too)."""
    if _takes("dealer", scorer) and rng.random() < 0.25:
        record["dealer"] = True
    if rng.random() < 0.15:
        record["win"] = _tile_text(rng.choice(concealed))
    if record.get("concealed_kongs") and rng.random() < 0.1:
        record["after_kong"] = True
    if _takes("robbing_kong", scorer) and "discarder" in record and rng.random() < 0.03:
        record["robbing_kong"] = True
    if _takes("heavenly", scorer) and rng.random() < 0.01:
        record["heavenly" if record.get("dealer") else "earthly"] = True
    if _takes("piao", scorer) and rng.random() < 0.2:
        record["piao"] = rng.randint(1, 3)


WUHU = [name for name in shipped_names() if load_ruleset(name).scorer == "wuhu"]


def write_records(path: Path, n: int, seed: int, distinct: int | None = None, variants: list[str] | None = None) -> None:
    """`n` records; with `distinct`, they cycle through that many different hands (ids still differ)."""
    rng = random.Random(seed)
    variants = variants or WUHU
    pool = [random_hand(rng, variants[i % len(variants)]) for i in range(distinct)] if distinct else None
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            record = dict(pool[i % len(pool)]) if pool else random_hand(rng, variants[i % len(variants)])
            record["id"] = i
            f.write(json.dumps(record) + "\n")


# --- timing helpers -----------------------------------------------------------------------


def run_process(cmd: list[str], stdin: Path | None = None, env: dict[str, str] | None = None) -> tuple[float, int, int]:
    """(wall seconds, peak RSS in KiB, exit status) of one process; its output goes to /dev/null."""
    with open(os.devnull, "w") as devnull, (stdin.open("rb") if stdin else open(os.devnull, "rb")) as src:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=src, stdout=devnull, stderr=devnull, env={**os.environ, **(env or {})})
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss, proc.returncode


def mjcalc_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("mjcalc")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mahjong_calc"]


def batch_wall(path: Path, jobs: int, env: dict[str, str] | None = None) -> float:
    """Wall seconds of one whole `mjcalc batch --jobs N` process over `path`."""
    wall, _, code = run_process([*mjcalc_cmd(), "batch", str(path), "--jobs", str(jobs)], env=env)
    if code not in (0, 1):
        raise SystemExit(f"mjcalc batch failed with exit status {code}")
    return wall


def bench_batch(path: Path, n: int, jobs: int, env: dict[str, str] | None = None) -> float:
    """hands/s of one `mjcalc batch --jobs N` run over `path` (`n` hands)."""
    return n / batch_wall(path, jobs, env)


def bench_jobs(path: Path, n: int, runs: int) -> tuple[float, float, float]:
    """(--jobs 1 hands/s, --jobs 2 hands/s, median ratio): runs interleaved in pairs, so that
    drift in the machine's load hits both alike; rates are medians of `runs`."""
    ones, twos = [], []
    for _ in range(runs):
        ones.append(batch_wall(path, 1))
        twos.append(batch_wall(path, 2))
    ratio = statistics.median(one / two for one, two in zip(ones, twos))
    return n / statistics.median(ones), n / statistics.median(twos), ratio


_LIBRARY_CODE = """
import json, sys, time
from mahjong_calc.compiled import kernel_compiled
from mahjong_calc.batch import score_partition
with open(sys.argv[1], encoding="utf-8") as f:
    records = [json.loads(line) for line in f]
parts = [records[i:i + 5000] for i in range(0, len(records), 5000)]
start = time.perf_counter()
for part in parts:
    score_partition(part)
print(json.dumps({"us": (time.perf_counter() - start) / len(records) * 1e6, "compiled": kernel_compiled("wuhu")}))
"""


def bench_library(path: Path) -> tuple[float, bool]:
    """(µs a record, compiled scorer on) of `score_partition` over `path`'s records, in a child
    process started outside the repository (so that it imports the installed package)."""
    with tempfile.TemporaryDirectory() as cwd:
        done = subprocess.run([sys.executable, "-c", _LIBRARY_CODE, str(path)], cwd=cwd, capture_output=True,
                              text=True, check=True, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    info = json.loads(done.stdout)
    return float(info["us"]), bool(info["compiled"])


def bench_mahjong_package(n: int, seed: int) -> float | None:
    """hands/s of the riichi `mahjong` package's HandCalculator on random complete hands."""
    rates = mahjong_rates(n, seed)
    return None if rates is None else rates[0]


def mahjong_rates(n: int, seed: int) -> tuple[float, float] | None:
    """(hands/s of wall time, hands/s of CPU time) of the `mahjong` package, as bench_mahjong_package."""
    hands = mahjong_hands(n, seed)
    if hands is None:
        return None
    wall, cpu = time_mahjong(hands)
    return n / wall, n / cpu


def mahjong_hands(n: int, seed: int) -> list[tuple[list[int], int]] | None:
    """`n` seeded random complete riichi hands (136-tile numbers, the winning tile); None without the package."""
    try:
        import mahjong.hand_calculating.hand  # noqa: F401
    except ImportError:
        return None
    rng = random.Random(seed)
    hands: list[tuple[list[int], int]] = []
    while len(hands) < n:
        counts = [0] * 34
        blocks: list[list[int]] = []
        pair = rng.randrange(34)
        counts[pair] = 2
        blocks.append([pair, pair])
        while len(blocks) < 5:
            if rng.random() < 0.6:
                suit, start = rng.randrange(3), rng.randrange(7)
                block = [suit * 9 + start + d for d in range(3)]
            else:
                block = [rng.randrange(34)] * 3
            if all(counts[t] + block.count(t) <= 4 for t in set(block)):
                for t in block:
                    counts[t] += 1
                blocks.append(block)
        tiles136: list[int] = []
        used = [0] * 34
        for block in blocks:
            for t in block:
                tiles136.append(t * 4 + used[t])
                used[t] += 1
        hands.append((sorted(tiles136), rng.choice(tiles136)))
    return hands


def time_mahjong(hands: list[tuple[list[int], int]]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of `HandCalculator.estimate_hand_value` over `hands`, in this process,
    at its fastest honest use: one calculator and one `HandConfig`, reused as its users would."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    calculator = HandCalculator()
    config = HandConfig()
    start, start_cpu = time.perf_counter(), time.process_time()
    for tiles, win in hands:
        calculator.estimate_hand_value(tiles, win, config=config)
    return time.perf_counter() - start, time.process_time() - start_cpu


def time_riichienv(hands: list[tuple[list[int], int]]) -> tuple[float, float] | None:
    """(wall seconds, CPU seconds) of the `riichienv` package (Rust) scoring `hands`, in this process, through
    its Rust core directly, its fastest use (the conditions converted once, as its own `HandEvaluator` wrapper
    does per call); None without the package."""
    try:
        import riichienv
        import riichienv._riichienv as core
        from riichienv.hand import _to_rust_conditions  # what riichienv's own wrapper calls; no public name does it once
    except ImportError:
        return None
    conditions = _to_rust_conditions(riichienv.Conditions(tsumo=False))
    start, start_cpu = time.perf_counter(), time.process_time()
    for tiles, win in hands:
        core.HandEvaluator(tiles, []).calc(win, [], [], conditions)
    return time.perf_counter() - start, time.process_time() - start_cpu


NO_COMPILER = {"MJCALC_PURE_PYTHON": "1"}


def median_times(cmd: list[str], runs: int, env: dict[str, str] | None = None, cwd: str | None = None) -> tuple[float, float]:
    """(median wall seconds, median CPU seconds) of `runs` whole processes (exit 0 or 1), output to /dev/null.

    CPU time (user + system) is the steadier figure on a shared machine: waiting for a core is not in it.
    """
    walls, cpus = [], []
    for _ in range(runs):
        with open(os.devnull, "w") as devnull:
            start = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=devnull, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})}, cwd=cwd)
            _, status, usage = os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - start)
            cpus.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)} failed with exit status {os.waitstatus_to_exitcode(status)}")
    return statistics.median(walls), statistics.median(cpus)


def best_times(cmd: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process (exit 0 or 1), output to /dev/null."""
    return median_times(cmd, 1, env, cwd)


def distinct_records(path: Path) -> int:
    """Records of a JSON Lines file that differ in more than their `id`."""
    seen = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record.pop("id", None)
        seen.add(json.dumps(record, sort_keys=True))
    return len(seen)


class Printed(list[str]):
    """The table's rows, each printed as soon as it is measured (a long table shows its progress)."""

    def __init__(self, rows: list[str]) -> None:
        super().__init__()
        for row in rows:
            self.append(row)

    def append(self, row: str) -> None:
        print(row, flush=True)
        super().append(row)


TARGETS = {"wuhu315": "must ≥ 2x, target ≥ 4x", "chizhou": "must ≥ 3x, target ≥ 5x", "pujiang": "must ≥ 1.75x, target ≥ 3x"}


def engine_table(hands: int, seed: int, runs: int, tmp: Path, no_compiler_python: Path | None, rss_records: int = 0,
                 install: bool = False) -> list[str]:
    """The rows of the engine's target table, measured now (see the module docstring, item 8).

    Each variant's ratio is measured within one stretch of time: the `mahjong` package, the
    compiled `mjcalc batch` and the no-compiler one run interleaved, `runs` rounds, and each
    takes its best (least) time, so that load from other work on the machine hits all alike.
    """
    riichi = mahjong_hands(hands, seed)
    if riichi is None:
        return Printed(["the table needs the mahjong package (pip install -e '.[bench]')"])
    if no_compiler_python is None:
        plain, plain_env, plain_cwd = mjcalc_cmd(), NO_COMPILER, None
    else:
        plain, plain_env, plain_cwd = [str(no_compiler_python), "-m", "mahjong_calc"], {}, str(tmp)  # outside the checkout
    version = subprocess.run([*mjcalc_cmd(), "--version"], capture_output=True, text=True, check=True).stdout.splitlines()
    load = os.getloadavg()[0]
    rows = Printed([f"engine table: mjcalc batch --jobs 1 (whole process, JSON Lines in and out) against the mahjong package's "
            f"HandCalculator.estimate_hand_value (in process) on {hands:,} random complete hands, interleaved, best of {runs}; "
            f"load average {load:.1f} at the start",
            f"installed: {'; '.join(version[1:])}",
            "| figure | hands (distinct) | measured | target |", "|---|---|---|---|"])
    plain_ratios = []
    rust: list[tuple[float, float]] = []  # riichienv's times, in the same rounds as the mahjong package's
    for number, name in enumerate(shipped_names()):
        path = tmp / f"table-{name}.jsonl"
        write_records(path, hands, seed + 10 + number, variants=[name])
        wilds = sum('"wild"' in line for line in path.read_text(encoding="utf-8").splitlines())
        distinct = distinct_records(path)
        theirs, fast, slow = [], [], []
        for _ in range(runs):
            theirs.append(time_mahjong(riichi))
            timed = time_riichienv(riichi)
            if timed is not None:
                rust.append(timed)
            fast.append(best_times([*mjcalc_cmd(), "batch", str(path), "--jobs", "1"]))
            slow.append(best_times([*plain, "batch", str(path), "--jobs", "1"], plain_env, plain_cwd))
        mine, mine_cpu = min(w for w, _ in fast), min(c for _, c in fast)
        them, them_cpu = min(w for w, _ in theirs), min(c for _, c in theirs)
        slow_wall, slow_cpu = min(w for w, _ in slow), min(c for _, c in slow)
        plain_ratios.append(f"{name} {them / slow_wall:.2f}x ({them_cpu / slow_cpu:.2f}x by CPU)")
        note = f" (财神 in {wilds / hands:.0%} of records)" if wilds else ""
        rows.append(f"| {name}{note}, compiled / mahjong | {hands:,} ({distinct:,}) | {them / mine:.2f}x ({them_cpu / mine_cpu:.2f}x by CPU), "
                    f"{hands / mine:,.0f} against {hands / them:,.0f} hands/s | {TARGETS.get(name, '—')} |")
    rows.append(f"| every variant, no compiler / mahjong | {hands:,} each | " + ", ".join(plain_ratios)
                + " | as 34c90c6 (0.89 / 1.63 / 0.79x), target ≥ 1.5x |")
    if rust:
        theirs_best = min(time_mahjong(riichi) for _ in range(runs))
        rust_wall, rust_cpu = min(w for w, _ in rust), min(c for _, c in rust)
        rows.append(f"| riichienv (Rust) / mahjong, the same hands | {hands:,} | {theirs_best[0] / rust_wall:.2f}x ({theirs_best[1] / rust_cpu:.2f}x by CPU), "
                    f"{hands / rust_wall:,.0f} hands/s | (printed beside) |")
    else:
        rows.append("| riichienv / mahjong | | not installed (pip install riichienv) | |")
    game = tmp / "game.jsonl"
    import game as game_bench  # bench/game.py

    lines = game_bench.make_game(10_000, "wuhu315", 12)
    game.write_text("\n".join(lines) + "\n", encoding="utf-8")
    settle, settle_cpu = median_times([*mjcalc_cmd(), "game", "settle", str(game), "--json"], runs)
    rows.append(f"| mjcalc game settle, 10,000-hand game (wuhu315) | 10,000 ({len(set(lines[1:])):,}) | {settle:.2f} s ({settle_cpu:.2f} s CPU) | < 1 s |")
    import stats as stats_bench  # bench/stats.py

    season = tmp / "season.jsonl"
    lines = stats_bench.make_season(1_000, 16, "wuhu315", 23)
    season.write_text("\n".join(lines) + "\n", encoding="utf-8")
    hands_distinct = len({line for line in lines if '"winner"' in line or '"draw"' in line})
    fold, fold_cpu = median_times([*mjcalc_cmd(), "stats", str(season), "--json"], runs)
    rows.append(f"| mjcalc stats, 1,000 games of 16 hands (wuhu315) | 16,000 ({hands_distinct:,}) | {fold_cpu:.2f} s CPU ({fold:.2f} s) | < 1 s |")
    done = subprocess.run([sys.executable, str(HERE / "advise.py"), "--hands", "300", "--process-runs", "1"], capture_output=True, text=True,
                          cwd=str(tmp), check=False, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    worst = [line.split("worst")[1].split("ms")[0].strip() for line in done.stdout.splitlines() if line.startswith("pujiang 财神")]
    rows.append(f"| mjcalc advise, Pujiang with a 财神, worst of 300 hands (in process) | 300 (300) | "
                f"{worst[0] + ' ms' if worst else 'failed'} | < 100 ms |")
    done = subprocess.run([sys.executable, str(HERE / "waits.py")], capture_output=True, text=True, cwd=str(tmp), check=False,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    worst = [line for line in done.stdout.splitlines() if line.startswith("worst warm median:")]
    rows.append(f"| mjcalc waits, worst 13-tile hand, warm | | {worst[0].split(': ')[1] if worst else 'failed'} | < 2 ms |")
    figures = startup.startup(max(runs, 5) * 3)
    (wall, cpu, least), (bare_wall, bare_cpu, bare_least) = figures["mjcalc"], figures["bare Typer"]
    rows.append(f"| start-up, mjcalc score --json / bare Typer command | | {wall / bare_wall:.2f}x wall, {cpu / bare_cpu:.2f}x CPU, "
                f"{least / bare_least:.2f}x least CPU ({wall * 1e3:.0f} / {bare_wall * 1e3:.0f} ms wall) | ≤ 1.15x |")
    if rss_records:
        big = tmp / "big.jsonl"
        write_records(big, rss_records, seed + 1)
        wall, rss, _ = run_process([*mjcalc_cmd(), "batch", str(big)])
        rows.append(f"| peak RSS, mjcalc batch --jobs 1 | {rss_records:,} | {rss / 1024:.1f} MiB ({wall:.1f} s) | |")
        big.unlink()
    if install:
        took, compiled = install_time(tmp)
        rows.append(f"| pip install . from a fresh clone (its own venv) | | {took:.0f} s, {compiled} | |")
    rows.append(f"load average {os.getloadavg()[0]:.1f} at the end")
    return rows


def install_time(tmp: Path) -> tuple[float, str]:
    """(wall seconds, which modules compiled) of `pip install .` of a fresh clone of this checkout's HEAD into a new venv."""
    clone, venv = tmp / "clone", tmp / "venv"
    subprocess.run(["git", "clone", "-q", str(HERE.parent), str(clone)], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    start = time.perf_counter()
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(clone)], capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        return took, f"failed: {done.stderr.strip().splitlines()[-1:]}"
    version = subprocess.run([str(venv / "bin" / "mjcalc"), "--version"], capture_output=True, text=True, cwd=str(tmp), check=False).stdout
    compiled = [line for line in version.splitlines() if line.startswith("compiled:")]
    names = compiled[0].split(": ", 1)[1] if compiled else "?"
    return took, f"{len(names.split(', '))} modules compiled" if names.startswith("mahjong_calc") else f"compiled: {names}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per batch run (spread over the variants)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--startup-runs", type=int, default=21)
    parser.add_argument("--startup-baseline", type=Path, help="also time another mjcalc checkout's start-up (see bench/startup.py)")
    parser.add_argument("--batch-runs", type=int, default=5, help="interleaved --jobs 1/--jobs 2 pairs (median)")
    parser.add_argument("--rss-records", type=int, default=1_000_000, help="records for the memory run (0: skip)")
    parser.add_argument("--big-scale", type=float, default=1.0, help="share of the large-record memory runs (0: skip)")
    parser.add_argument("--table-hands", type=int, help="hands of each variant for the engine table (default: --hands)")
    parser.add_argument("--table-runs", type=int, default=3, help="interleaved rounds of each table figure (best of)")
    parser.add_argument("--only-table", action="store_true", help="print the engine table alone")
    parser.add_argument("--no-compiler-python", type=Path, help="the table's no-compiler rows run this Python's mjcalc")
    parser.add_argument("--install", action="store_true", help="the table also times `pip install .` of a fresh clone (about 2 minutes)")
    args = parser.parse_args()

    import compileall

    compileall.compile_dir(str(HERE.parent / "mahjong_calc"), quiet=1)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}")
    if args.only_table:
        with tempfile.TemporaryDirectory() as tmp:
            engine_table(args.table_hands or args.hands, args.seed, args.table_runs, Path(tmp), args.no_compiler_python,
                         args.rss_records, args.install)
        return
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "hands.jsonl"
        write_records(data, args.hands, args.seed)
        print(f"Wuhu ({', '.join(WUHU)}): {args.hands:,} seeded random legal hands (seed {args.seed})")
        one, two, ratio = bench_jobs(data, args.hands, args.batch_runs)
        print(f"mjcalc batch --jobs 1: {one:>10,.0f} hands/s (end to end, JSONL in and out; "
              f"median of {args.batch_runs} runs)")
        print(f"mjcalc batch --jobs 2: {two:>10,.0f} hands/s ({ratio:.2f}x --jobs 1: the median ratio "
              f"of {args.batch_runs} interleaved pairs)")
        library, compiled = bench_library(data)
        print(f"Dask path (score_partition, in process): {library:>8.1f} µs/record; mjcalc batch --jobs 1: "
              f"{1e6 / one:.1f} µs/record; ratio {library / (1e6 / one):.2f}x "
              f"(compiled scorer {'on' if compiled else 'off'} in the library path)")
        if kernel_compiled("wuhu"):
            python_only = bench_batch(data, args.hands, 1, env={"MJCALC_PURE_PYTHON": "1"})
            print(f"mjcalc batch --jobs 1, MJCALC_PURE_PYTHON=1: {python_only:>10,.0f} hands/s "
                  f"(the Python scorer alone; the compiled one is {one / python_only:.1f}x)")
        else:
            print("the compiled Wuhu scorer is not built: these figures are the Python scorer's")
        for name in shipped_names():
            if name in WUHU:
                continue
            other = Path(tmp) / f"{name}.jsonl"
            count = max(args.hands // 10, 1)
            write_records(other, count, args.seed + 3, variants=[name])
            print(f"mjcalc batch --jobs 1, {name}: {bench_batch(other, count, 1):>10,.0f} hands/s "
                  f"({count:,} random legal hands; the generator knows only Wuhu's win shape, so most are not wins)")
        repeated = Path(tmp) / "repeated.jsonl"
        write_records(repeated, args.hands, args.seed + 2, distinct=1000)
        cached = bench_batch(repeated, args.hands, 1)
        print(f"mjcalc batch --jobs 1, 1,000 distinct hands repeated: {cached:>10,.0f} hands/s (result cache)")
        theirs = bench_mahjong_package(args.hands, args.seed)
        if theirs is None:
            print("mahjong package: not installed (pip install -e '.[bench]')")
        else:
            print(f"mahjong HandCalculator.estimate_hand_value: {theirs:>10,.0f} hands/s (in process)")
            print(f"ratio mjcalc batch --jobs 1 / mahjong: {one / theirs:.2f}x")
        print("\n".join(startup.report(startup.startup(args.startup_runs, args.startup_baseline), args.startup_runs)))
        if args.rss_records:
            big = Path(tmp) / "big.jsonl"
            write_records(big, args.rss_records, args.seed + 1)
            wall, rss, _ = run_process([*mjcalc_cmd(), "batch", str(big)])
            print(f"memory: {args.rss_records:,} records in {wall:.1f} s, peak RSS {rss / 1024:.1f} MiB (--jobs 1)")
            wall_two, rss_two, _ = run_process([*mjcalc_cmd(), "batch", str(big), "--jobs", "2"])
            print(f"the same file with --jobs 2: {wall_two:.1f} s ({wall / wall_two:.2f}x --jobs 1; "
                  f"start-up, a fixed cost, weighs less here), parent's peak RSS {rss_two / 1024:.1f} MiB")
    if args.big_scale and sys.platform.startswith("linux"):
        print("records of about 1 MiB: peak RSS of the whole process tree (bench/batch_memory.py)")
        for line in batch_memory.report(args.big_scale):
            print(line, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        engine_table(args.table_hands or args.hands, args.seed, args.table_runs, Path(tmp), args.no_compiler_python, 0, args.install)


if __name__ == "__main__":
    main()
