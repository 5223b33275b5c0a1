"""The variant hint: a tile or a chow meld the ruleset has not, while another shipped
variant has it, adds "did you mean `--variant chizhou`?" to the error message.

It loads the other shipped rulesets, so it sits above the rules floor, beside `score()`
which raises those errors. The slips that need only the tiles (13 tiles given to
`score`, a concealed kong typed inside HAND) are worded where they are raised, in
`core/hand.py`: the hint is part of the message library callers see, not only the CLI's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.words import N_, Text
from ..rules.loader import load_ruleset, shipped_names
from ..rules.schema import tile_in_variant


def variants_accepting(tiles: Sequence[int], chow_meld: bool, current: str) -> list[str]:
    """Shipped rulesets other than `current` whose tiles (and chow melds) include these."""
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


def variant_hint(tiles: Sequence[int], chow_meld: bool, current: str) -> Text | str:
    """`; did you mean `--variant chizhou`?` or '' when no other variant takes the hand."""
    names = variants_accepting(tiles, chow_meld, current)
    if not names:
        return ""
    return N_("; did you mean {variants}?", variants=N_(" or ").render().join(f"`--variant {n}`" for n in names))
