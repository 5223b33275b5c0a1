"""Differential run: this checkout's `mjcalc` against a baseline checkout's, byte for byte.

    git worktree add /tmp/before main && python3 -m venv /tmp/before/.venv \\
        && /tmp/before/.venv/bin/pip install -q /tmp/before
    python bench/differential.py --baseline /tmp/before                  # 100,000 records a variant
    python bench/differential.py --baseline /tmp/before --records 2000 --env MJCALC_PURE_PYTHON=1

For each variant, N seeded random records (bench/run.py's generator: melds, concealed kongs,
the variant's flags now and then, a 财神 in one Pujiang record of three, some clashing
flags and non-wins, which are answers too) go through `mjcalc batch FILE --jobs 1` (JSON
Lines out) of both sides; then `--sample` of them a variant through `mjcalc score ... --json`
(with `--explain`, `mjcalc score ... --json --explain`: every reading the scorer kept); with
`--games N`, N random games a variant (bench/game.py's generator, `--game-hands` hands each)
through `mjcalc game settle FILE --json`.
Exit statuses, stdout and stderr must be identical. Each side runs the package its Python
has installed (from a directory outside both checkouts), so reinstall a checkout after
changing it; `--from-source` runs both source trees instead (plain Python, nothing compiled).
Prints, per variant: records, identical lines, the first differing line of each side.
Exit status 0 if everything is identical, 1 otherwise. Not a test: it is too slow.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from itertools import zip_longest
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import game  # noqa: E402  (bench/game.py, beside this file)
import run  # noqa: E402  (bench/run.py, beside this file)

from mahjong_calc.core.flags import fields  # noqa: E402

VARIANTS = ["wuhu315", "wuhu525", "chizhou", "pujiang"]


class Side:
    """One checkout's `mjcalc`: its Python, its environment, a directory outside both checkouts."""

    def __init__(self, name: str, python: Path, env: dict[str, str], source: Path | None, cwd: Path) -> None:
        self.name, self.python, self.cwd = name, python, cwd
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | env
        if source is not None:
            self.env["PYTHONPATH"] = str(source)

    def run(self, args: list[str], stdout: Any = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([str(self.python), "-m", "mahjong_calc", *args], cwd=self.cwd, env=self.env,
                              stdout=stdout, stderr=subprocess.PIPE, check=False)

    def describe(self) -> str:
        code = "import mahjong_calc; print(mahjong_calc.__path__[0])"
        where = subprocess.run([str(self.python), "-c", code], cwd=self.cwd, env=self.env, capture_output=True, text=True, check=True)
        version = self.run(["--version"]).stdout.decode().strip().replace("\n", "; ")
        return f"{self.name}: {self.python} imports {where.stdout.strip()} ({version})"


def shorten(line: bytes, at: int, width: int = 160) -> str:
    """The line around byte `at` (where the sides first differ), at most about `width` characters."""
    start = max(0, at - width // 2)
    text = line[start : start + width].decode("utf-8", "replace").rstrip("\n")
    return ("…" if start else "") + text + ("…" if start + width < len(line) else "")


def first_difference(a: bytes, b: bytes) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def lines(path: Path) -> Iterator[bytes]:
    with path.open("rb") as f:
        yield from f


def compare_batch(ours: Side, base: Side, source: Path, tmp: Path) -> tuple[int, int, str | None]:
    """(lines, identical lines, a description of the first difference or None) of `batch` on `source`."""
    outputs, statuses = [], []
    for side in (ours, base):
        out = tmp / f"{side.name}.jsonl"
        with out.open("wb") as f:
            done = side.run(["batch", str(source), "--jobs", "1"], stdout=f)
        outputs.append(out)
        statuses.append((done.returncode, done.stderr))
    total = same = 0
    first: str | None = None
    for number, (a, b) in enumerate(zip_longest(lines(outputs[0]), lines(outputs[1]), fillvalue=b""), 1):
        total += 1
        if a == b:
            same += 1
        elif first is None:
            at = first_difference(a, b)
            first = f"line {number}, byte {at}:\n    {ours.name}: {shorten(a, at)}\n    {base.name}: {shorten(b, at)}"
    if statuses[0] != statuses[1] and first is None:
        first = f"exit status/stderr: {ours.name} {statuses[0][0]} {statuses[0][1][:200]!r}; {base.name} {statuses[1][0]} {statuses[1][1][:200]!r}"
    return total, same, first


def score_args(record: dict[str, Any]) -> list[str]:
    """`mjcalc score` arguments for a batch record, from flags.fields() (the one table of fields)."""
    args = [str(record["hand"])]
    for field in fields():
        value = record.get(field.name)
        if field.name in ("id", "hand") or value is None or value is False:
            continue
        option = field.cli[0]
        if value is True:
            args.append(option)
        elif isinstance(value, list):
            for item in value:
                args += [option, str(item)]
        else:
            args += [option, str(value)]
    return [*args, "--json"]


def _compare(ours: Side, base: Side, cases: Iterable[tuple[list[str], str]]) -> tuple[int, int, str | None]:
    """(cases, identical, the first difference) of running each case's arguments on both sides."""
    count, same, first = 0, 0, None
    for args, label in cases:
        count += 1
        a, b = ours.run(args), base.run(args)
        if (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr):
            same += 1
        elif first is None:
            at = first_difference(a.stdout, b.stdout)
            first = (f"{label}: exit {a.returncode} / {b.returncode}\n"
                     f"    {ours.name}: {shorten(a.stdout, at)} {a.stderr[:200]!r}\n    {base.name}: {shorten(b.stdout, at)} {b.stderr[:200]!r}")
    return count, same, first


def compare_score(ours: Side, base: Side, records: list[dict[str, Any]], explain: bool = False) -> tuple[int, int, str | None]:
    def cases() -> Iterator[tuple[list[str], str]]:
        for record in records:
            args = score_args(record) + (["--explain"] if explain else [])
            yield ["score", *args], f"mjcalc score {' '.join(args)}"

    return _compare(ours, base, cases())


def compare_games(ours: Side, base: Side, variant: str, games: int, hands: int, seed: int, tmp: Path) -> tuple[int, int, str | None]:
    """(games, identical, the first difference) of `mjcalc game settle FILE --json` on `games` random games."""
    def cases() -> Iterator[tuple[list[str], str]]:
        for number in range(games):
            path = tmp / f"{variant}.game{number}.jsonl"
            path.write_text("\n".join(game.make_game(hands, variant, seed + number)) + "\n", encoding="utf-8")
            yield ["game", "settle", str(path), "--json"], f"game {number} ({path.name})"

    return _compare(ours, base, cases())


def env_pairs(items: list[str]) -> dict[str, str]:
    pairs = dict(item.split("=", 1) for item in items if "=" in item)
    if len(pairs) != len(items):
        raise SystemExit(f"--env/--baseline-env take NAME=VALUE, not {items}")
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other checkout (its folder holds mahjong_calc/)")
    parser.add_argument("--baseline-python", type=Path, help="its Python (default: BASELINE/.venv/bin/python)")
    parser.add_argument("--python", type=Path, help="this checkout's Python (default: .venv/bin/python here, else this one)")
    parser.add_argument("--records", type=int, default=100_000, help="random records a variant (default 100,000)")
    parser.add_argument("--variants", nargs="+", default=VARIANTS)
    parser.add_argument("--sample", type=int, default=50, help="records a variant also compared through `mjcalc score --json`")
    parser.add_argument("--explain", action="store_true", help="the `mjcalc score` sample also with --explain (every reading)")
    parser.add_argument("--games", type=int, default=0, help="random games a variant also compared through `mjcalc game settle --json`")
    parser.add_argument("--game-hands", type=int, default=50, help="hands in each of those games (default 50)")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for this side, e.g. MJCALC_PURE_PYTHON=1")
    parser.add_argument("--baseline-env", action="append", default=[], help="NAME=VALUE for the baseline side")
    parser.add_argument("--from-source", action="store_true", help="run both source trees (PYTHONPATH) instead of the installed packages")
    args = parser.parse_args()

    if not (args.baseline / "mahjong_calc" / "__init__.py").is_file():
        raise SystemExit(f"--baseline {args.baseline}: no mahjong_calc/ package there")
    base_python = args.baseline_python or args.baseline / ".venv" / "bin" / "python"
    own_venv = HERE.parent / ".venv" / "bin" / "python"
    our_python = args.python or (own_venv if own_venv.exists() else Path(sys.executable))
    for python in (base_python, our_python):
        if not python.exists():
            raise SystemExit(f"no Python at {python} (give --baseline-python / --python)")
    base_python, our_python, baseline = base_python.absolute(), our_python.absolute(), args.baseline.resolve()
    failed = False
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        ours = Side("this", our_python, env_pairs(args.env), HERE.parent if args.from_source else None, tmp)
        base = Side("baseline", base_python, env_pairs(args.baseline_env), baseline if args.from_source else None, tmp)
        print(ours.describe())
        print(base.describe())
        for number, variant in enumerate(args.variants):
            source = tmp / f"{variant}.records.jsonl"
            run.write_records(source, args.records, args.seed + number, variants=[variant])
            total, same, first = compare_batch(ours, base, source, tmp)
            print(f"{variant}: batch, {args.records:,} records, {total:,} output lines, {same:,} identical"
                  + ("" if first is None else f"; first difference at {first}"))
            failed |= first is not None
            if args.sample:
                records = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
                step = max(1, len(records) // args.sample)
                total, same, first = compare_score(ours, base, records[::step][: args.sample], args.explain)
                shown = "score --json" + (" --explain" if args.explain else "")
                print(f"{variant}: {shown}, {total:,} records, {same:,} identical" + ("" if first is None else f"; first difference: {first}"))
                failed |= first is not None
            if args.games:
                total, same, first = compare_games(ours, base, variant, args.games, args.game_hands, args.seed + 1000 * number, tmp)
                print(f"{variant}: game settle --json, {total:,} games of {args.game_hands:,} hands, {same:,} identical"
                      + ("" if first is None else f"; first difference: {first}"))
                failed |= first is not None
    print("identical" if not failed else "DIFFERENT")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
