"""Hints for the slips players make at the table: they turn into one more clause of an error message.

- 13 tiles given to `score`: the question is `mjcalc waits`.
- A concealed kong typed inside HAND (15 concealed tiles, four alike): `-k 1111m`.
- A tile or a chow meld the ruleset has not, while another shipped variant has it:
  "did you mean `--variant chizhou`?".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .tiles import format_tiles

WAITS_HINT = "{n} tiles: to see what each winning tile scores, run `mjcalc waits ...`"


def tile_count_message(concealed: Sequence[int], melds: int, expected: int) -> str:
    """The `wrong_tile_count` message, with what the player probably meant."""
    n = len(concealed)
    if n == expected - 1:
        return WAITS_HINT.format(n=n)
    base = f"the hand has {n} concealed tiles; with {melds} meld(s) it needs {expected}"
    extra = n - expected
    if extra > 0:
        fours = sorted({t for t in concealed if concealed.count(t) == 4})
        if fours and extra <= len(fours):
            kongs = " ".join(f"-k {format_tiles([t] * 4)}" for t in fours[:extra])
            return f"{base}; a concealed kong goes in a flag, not in HAND: {kongs}"
    return base


def variants_accepting(tiles: Sequence[int], chow_meld: bool, current: str) -> list[str]:
    """Shipped rulesets other than `current` whose tiles (and chow melds) include these."""
    from .ruleset import load_ruleset, shipped_names
    from .scoring import tile_in_variant

    out: list[str] = []
    for name in shipped_names():
        if name == current:
            continue
        rs: Any = load_ruleset(name)
        table = rs.tiles if hasattr(rs, "tiles") else rs.data["tiles"]
        chows = table.chow_melds if hasattr(table, "chow_melds") else table["chow_melds"]
        if all(tile_in_variant(t, table) for t in tiles) and (chows or not chow_meld):
            out.append(name)
    return out


def variant_hint(tiles: Sequence[int], chow_meld: bool, current: str) -> str:
    """`; did you mean `--variant chizhou`?` or '' when no other variant takes the hand."""
    names = variants_accepting(tiles, chow_meld, current)
    if not names:
        return ""
    return "; did you mean " + " or ".join(f"`--variant {n}`" for n in names) + "?"
