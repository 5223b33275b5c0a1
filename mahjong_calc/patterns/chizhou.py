"""Detectors for Chizhou's own patterns (字一色, 大吊车, 抢杠)."""

from __future__ import annotations

from . import Candidate, detector


@detector("zi_yi_se")
def zi_yi_se(c: Candidate) -> int:
    """字一色: honours only (so never also 混一色, which needs a suit)."""
    return bool(c.arrangement) and c.has_honours and not c.suits_present


@detector("da_diao_che")
def da_diao_che(c: Candidate) -> int:
    """大吊车: all four sets are declared melds and the winning tile pairs the last lone tile."""
    arr = c.arrangement
    if arr is None or arr.win_in != -1 or len(arr.sets) != 4:
        return 0
    allow_concealed_kong = c.options.get("da_diao_che_concealed_kong", True)
    return all(s.declared and (allow_concealed_kong or not s.concealed) for s in arr.sets)


@detector("qiang_gang")
def qiang_gang(c: Candidate) -> int:
    """抢杠: won on the tile another player added to a pung to make a kong."""
    return c.ctx.robbing_kong
