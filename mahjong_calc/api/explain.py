"""`score --explain`: every reading the scorer considered, its value, and why the chosen one won.

The scorers' shared loop (`variants.common.reading.best_result`) keeps every reading on the
result (`ScoreResult.readings`); this module only lays them out as data. The
choice itself is the loop's: highest value, then the variant's rank, then the
first of equals.
"""

from __future__ import annotations

from typing import Any

from ..core.result import ScoreResult
from ..core.tiles import TileWords
from ..core.words import N_, Shown, Text

# Pujiang's shapes (variants/common/read.SHAPE_NAMES), as a reading names them: by their key with no language chosen
SHAPES = {"qi_dui": Shown(N_("seven pairs"), "qi_dui"), "zhen_13": Shown(N_("thirteen apart"), "zhen_13"),
          "zhen_zhen_13": Shown(N_("true thirteen apart"), "zhen_zhen_13"),
          "san_cai_shen": Shown(N_("three wilds"), "san_cai_shen")}


def reading_text(facts: Any) -> str | Text:
    """The tiles of one reading as the decomposition shows them: `99p 123m 123m 456m 555p`, win in `123m`."""
    shape = getattr(facts, "shape", None)
    arrangement = getattr(facts, "arrangement", None) or getattr(shape, "arrangement", None)
    name = getattr(shape, "name", None)
    text: str | Text
    if arrangement is not None:
        where = arrangement.to_dict()["win_in"]
        text = N_("{tiles}  (win in {where})", tiles=TileWords(arrangement.text()),
                  where=Shown(N_("the pair"), "pair") if where == "pair" else TileWords(where))
    else:
        text = Text("{tiles}", {"tiles": TileWords(getattr(shape, "text", "") or "")})
    if name and name != "standard":
        return N_("{shape}: {tiles}", shape=SHAPES.get(name, name), tiles=text)
    return text


def _chosen_index(result: ScoreResult) -> int:
    for index, reading in enumerate(result.readings):
        if reading.refusal is None and reading.items is result.items:
            return index
    for index, reading in enumerate(result.readings):  # a scorer that copied the items
        if reading.refusal is None and reading.value == result.value and tuple(reading.items) == tuple(result.items):
            return index
    return -1


def _why(result: ScoreResult, chosen: int) -> Text:
    """One sentence: how the chosen reading beat the others."""
    readings = result.readings
    best = readings[chosen]
    winners = [r for r in readings if r.refusal is None]
    if len(readings) == 1:
        return N_("the only way to read the hand")
    if len(winners) == 1:
        return N_("the only reading that wins; the others break a rule")
    others = [r for i, r in enumerate(readings) if r.refusal is None and i != chosen]
    runner_up = max(r.value for r in others)
    if best.value > runner_up:
        return N_("the highest value: {value}, the next best {next}", value=best.value, next=runner_up)
    same = [r for r in others if r.value == best.value]
    if any(r.rank < best.rank for r in same) and not any(r.rank == best.rank for r in same):
        return N_("ties on value {value}; the variant's tie-break (rank [{rank}]) prefers it", value=best.value, rank=best.rank)
    return N_("ties on value {value}; the first of equal readings is kept", value=best.value)


def explain(result: ScoreResult) -> dict[str, Any]:
    """`{"chosen": i, "why": "...", "readings": [{reading, value, patterns, items, refusal, chosen}]}`."""
    chosen = _chosen_index(result)
    rows = []
    for index, reading in enumerate(result.readings):
        refusal = reading.refusal
        rows.append(
            {
                "reading": str(reading_text(reading.facts)),
                "value": reading.value if refusal is None else None,
                "patterns": list(reading.patterns),
                "items": [i.to_dict() for i in reading.items],
                "refusal": refusal.to_dict() if refusal is not None else None,
                "chosen": index == chosen,
            }
        )
    why = _why(result, chosen) if chosen >= 0 else N_("the scorer kept no reading list")
    return {"chosen": chosen, "why": str(why), "readings": rows}
