"""Every cell of the seed's two Wuhu tables, scored end to end from a real hand.

Each (支, 压) row gets a hand built for it (tests/wuhu_hands.py, checked by an
independent oracle), scored four ways: discard / self-draw × non-dealer / dealer.
Six cells of the seed contradict its own formula; they are listed in SEED_ERRATA
and documented in docs/rules/wuhu.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from wuhu_hands import build

from mahjong_calc import score_hand

TABLE = Path(__file__).parent / "data" / "wuhu_seed_tables.txt"
KONG = {"wuhu315": 1, "wuhu525": 2}  # the seed: 明杠 315 算 1 番, 525 算 2 番

# (variant, 支, 压, draw, dealer) → (what the seed's table prints, what its formula gives)
SEED_ERRATA: dict[tuple[str, int, int, str, bool], tuple[int, int]] = {
    ("wuhu315", 12, 7, "self_draw", False): (14, 12),
    ("wuhu315", 12, 8, "self_draw", False): (14, 12),
    ("wuhu525", 9, 6, "discard", False): (11, 12),
    ("wuhu525", 9, 6, "discard", True): (15, 16),
    ("wuhu525", 13, 3, "discard", False): (13, 12),
    ("wuhu525", 13, 3, "discard", True): (17, 16),
}


def _cells() -> list[tuple[str, int, int, str, bool, int]]:
    cells = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        variant, *numbers = line.split()
        zhi, ya, discard, discard_dealer, self_draw, self_draw_dealer = map(int, numbers)
        cells += [
            (variant, zhi, ya, "discard", False, discard),
            (variant, zhi, ya, "discard", True, discard_dealer),
            (variant, zhi, ya, "self_draw", False, self_draw),
            (variant, zhi, ya, "self_draw", True, self_draw_dealer),
        ]
    return cells


CELLS = _cells()


def test_the_transcription_is_complete() -> None:
    # 7 平和 rows + 7×7 压档 rows, two variants, four cells each
    assert len(CELLS) == 2 * (7 + 49) * 4
    assert len({c[:5] for c in CELLS}) == len(CELLS)


@pytest.mark.parametrize(("variant", "zhi", "ya", "draw", "dealer", "cell"), CELLS, ids=lambda v: str(v))
def test_table_cell(variant: str, zhi: int, ya: int, draw: str, dealer: bool, cell: int) -> None:
    case = build(zhi, ya)
    result = score_hand(
        case.hand, variant=variant, melds=case.melds, self_draw=draw == "self_draw", dealer=dealer
    ).to_dict()
    assert result["zhi"] == zhi
    assert result["ya_dang"] == ya
    assert result["patterns"] == []
    expected = cell
    erratum = SEED_ERRATA.get((variant, zhi, ya, draw, dealer))
    if erratum is not None:
        printed, formula = erratum
        assert cell == printed, "the transcription of an erratum cell changed"
        expected = formula
    assert result["value"] == expected + KONG[variant] * case.kongs
    assert result["payments"] == {seat: result["value"] for seat in ("next", "opposite", "previous")}


def test_every_erratum_is_a_real_table_cell() -> None:
    table = {c[:5]: c[5] for c in CELLS}
    for key, (printed, _) in SEED_ERRATA.items():
        assert table[key] == printed
