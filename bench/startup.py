"""Start-up of `mjcalc score --json` against a bare Typer command, and optionally against
another checkout of mjcalc (the same machine, the same Typer, interleaved runs).

    python bench/startup.py                           # ours against a bare Typer hello-world
    git worktree add /tmp/morning 436d2e7             # the code as it was this morning
    python bench/startup.py --baseline /tmp/morning   # ... and against that checkout

Each command runs `--runs` times, interleaved, as a whole process. It prints the median
wall time, the median CPU time (user + system) and the least CPU time of each, and their
ratios. CPU time is the steadier figure on a shared machine (time spent waiting for a core
is not in it), and the least of many runs the steadiest (as `timeit` advises): the work is
the same each run, and what varies is what else the machine is doing.
Every checkout is byte-compiled first, as pip does for a regular install.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HAND = ["score", "123456m13m99p555p2m", "--self-draw", "--json"]
HELLO = (
    "import typer\n\napp = typer.Typer()\n\n\n@app.command()\ndef hello(name: str) -> None:\n"
    "    typer.echo(f'hello {name}')\n\n\nif __name__ == '__main__':\n    app()\n"
)


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process whose output goes to /dev/null."""
    with open(os.devnull, "w") as devnull:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=devnull, stderr=devnull, env={**os.environ, **(env or {})})
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with exit status {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def mjcalc_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("mjcalc")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mahjong_calc"]


def startup(runs: int, baseline: Path | None = None) -> dict[str, tuple[float, float, float]]:
    """{'mjcalc': (median wall, median CPU, least CPU), 'bare Typer': ..., and 'baseline' if given}.

    With a baseline, both mjcalc commands run as `python -m mahjong_calc` (the baseline
    through PYTHONPATH), so that the two start the same way.
    """
    compileall.compile_dir(str(HERE.parent / "mahjong_calc"), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)  # outside the repository: `python -m` imports the installed package
        hello = cwd / "hello.py"
        hello.write_text(HELLO, encoding="utf-8")
        commands: dict[str, tuple[list[str], dict[str, str] | None]] = {
            "mjcalc": ([*mjcalc_cmd(), *HAND] if baseline is None else [sys.executable, "-m", "mahjong_calc", *HAND], None),
            "bare Typer": ([sys.executable, str(hello), "world"], None),
        }
        if baseline is not None:
            compileall.compile_dir(str(baseline / "mahjong_calc"), quiet=1)
            commands["baseline"] = ([sys.executable, "-m", "mahjong_calc", *HAND], {"PYTHONPATH": str(baseline)})
        for cmd, env in commands.values():  # warm the file cache and the ruleset cache
            timed(cmd, cwd, env)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(runs):  # interleaved, so drift hits all alike
            for name, (cmd, env) in commands.items():
                samples[name].append(timed(cmd, cwd, env))
    return {name: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s), min(c for _, c in s))
            for name, s in samples.items()}


def report(figures: dict[str, tuple[float, float, float]], runs: int) -> list[str]:
    def shown(name: str) -> str:
        wall, cpu, least = figures[name]
        return f"{wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU, least CPU {least * 1000:.1f} ms"

    def ratio(a: str, b: str) -> str:
        return " / ".join(f"{x / y:.2f}x" for x, y in zip(figures[a], figures[b], strict=True)) + " (wall / CPU / least CPU)"

    lines = [f"start-up (median of {runs}): mjcalc score --json {shown('mjcalc')}; bare Typer command {shown('bare Typer')}",
             f"start-up ratio mjcalc / bare Typer: {ratio('mjcalc', 'bare Typer')}"]
    if "baseline" in figures:
        lines += [f"start-up of the baseline checkout: {shown('baseline')}; baseline / bare Typer: {ratio('baseline', 'bare Typer')}",
                  f"start-up ratio mjcalc / baseline: {ratio('mjcalc', 'baseline')}"]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--baseline", type=Path, help="a checkout of another mjcalc version (its folder holds mahjong_calc/)")
    args = parser.parse_args()
    if args.baseline is not None and not (args.baseline / "mahjong_calc" / "__init__.py").is_file():
        raise SystemExit(f"--baseline {args.baseline}: no mahjong_calc/ package there")
    print("\n".join(report(startup(args.runs, args.baseline), args.runs)))


if __name__ == "__main__":
    main()
