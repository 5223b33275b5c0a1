"""The Dask recipe from docs/batch.md: score_records over a dask.bag gives the single-process results."""

from __future__ import annotations

from typing import Any

import dask.bag as db  # the dask extra; README's test command installs it
import pytest

from mahjong_calc.batch import score_partition, score_records
from mahjong_calc.batch.evaluate import outcome
from mahjong_calc.compiled import kernel_compiled
from mahjong_calc.core.records import normalize

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
    outcome.cache_clear()
    db.from_sequence(records, npartitions=2).map_partitions(score_partition).compute(scheduler="sync")
    scored = [r for r in records if "bogus" not in r]  # the unknown field never reaches the scorer
    assert outcome.cache_info().currsize == len({normalize(r)[0] for r in scored})
    key, _ = normalize(WIN_315)
    assert outcome(key).compiled is kernel_compiled("wuhu")
