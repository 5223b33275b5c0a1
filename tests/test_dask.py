"""The Dask recipe from docs/batch.md: score_records over a dask.bag gives the single-process results."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import dask.bag as db  # the dask extra; README's test command installs it
import pytest
from installed import REPO, child_env

from mahjong_calc.batch import score_partition, score_records
from mahjong_calc.batch.evaluate import clear_outcomes, outcome, outcome_cache_info
from mahjong_calc.compiled import kernel_compiled
from mahjong_calc.core.batch_record import normalize

WIN_315 = {"id": "a", "hand": "123456m13m99p555p2m", "self_draw": True}  # value 8
WIN_525 = {"id": 2, "hand": "123m456m789m11p999p", "variant": "wuhu525"}  # value 12, 通天
NOT_WIN = {"id": "c", "hand": "123456m99p555p44s4s"}  # not 八支
MELDED = {"id": "m", "hand": "123456m13m99p2m", "melds": ["555p"], "self_draw": True, "dealer": True}


def _records() -> list[dict[str, Any]]:
    base: list[dict[str, Any]] = [WIN_315, WIN_525, NOT_WIN, MELDED, {"hand": "12x"}, {"hand": "123m", "bogus": 1}]
    return [{**record, "id": i} for i, record in enumerate(base * 5)]


@pytest.mark.slow
@pytest.mark.parametrize("scheduler", ["sync", "processes"])
def test_dask_bag_matches_single_process(scheduler: str) -> None:
    records = _records()
    bag = db.from_sequence(records, npartitions=4)
    got = bag.map_partitions(score_partition).compute(scheduler=scheduler)
    expected = list(score_records(records, start=None))
    assert got == expected
    assert [r["id"] for r in got] == list(range(len(records)))
    assert sum(r["valid"] for r in got) == 15  # three wins per block of six


def test_the_dask_path_is_the_batch_engine_s_fast_path() -> None:
    """score_partition goes through the engine's cached outcome, compiled where built."""
    records = _records()
    clear_outcomes()
    db.from_sequence(records, npartitions=2).map_partitions(score_partition).compute(scheduler="sync")
    scored = [r for r in records if "bogus" not in r]  # the unknown field never reaches the scorer
    assert outcome_cache_info().currsize == len({normalize(r)[0] for r in scored})
    key, _ = normalize(WIN_315)
    assert outcome(key).compiled is kernel_compiled("wuhu")


def _recipe() -> str:
    """The Dask code block of docs/batch.md, as a user copies it."""
    text = (REPO / "docs" / "batch.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    (block,) = [b for b in blocks if "import dask.bag" in b]
    return block


def test_the_docs_recipe_runs_as_a_script(tmp_path: Path) -> None:
    """Saved as a file and run with `python FILE` (where Dask starts worker processes), it writes
    the results of every record, as `score_records` scores them, one results file per input file."""
    script = tmp_path / "score_hands.py"
    script.write_text(_recipe(), encoding="utf-8")
    records = _records()
    halves = [records[: len(records) // 2], records[len(records) // 2 :]]
    for i, half in enumerate(halves):
        (tmp_path / f"hands-{i}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in half) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=child_env(), capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    outputs = sorted(tmp_path.glob("results-*.jsonl"))
    assert [p.name for p in outputs] == ["results-0.jsonl", "results-1.jsonl"]
    for path, half in zip(outputs, halves, strict=True):
        got = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert got == list(score_records(half, start=None))
