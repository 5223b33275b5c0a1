"""A live game as the record file `mjcalc game settle FILE` reads: YAML (a hand at a time) or a CSV log."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .model import GameInfo


def _dump(value: Any) -> str:
    import yaml

    return yaml.safe_dump(value, allow_unicode=True, sort_keys=False, default_flow_style=None, width=1000)


def yaml_pieces(info: GameInfo, hands: list[dict[str, Any]]) -> Iterator[str]:
    """`export_yaml`, a hand at a time: the same text as the whole document dumped at once."""
    yield f"# mjcalc game {info.id}, begun {info.created}; settle it with: mjcalc game settle FILE\n"
    if not hands:
        yield _dump({**info.header, "hands": []})
        return
    yield _dump(dict(info.header)) + "hands:\n"
    for hand in hands:
        yield _dump([hand])


def export_yaml(info: GameInfo, hands: list[dict[str, Any]]) -> str:
    """The game in the record format `mjcalc game settle FILE` reads."""
    return "".join(yaml_pieces(info, hands))


def export_csv(info: GameInfo, hands: list[dict[str, Any]]) -> str:
    """The game as a one-game CSV log (`game export --format csv`)."""
    from ..game.csv_log import live_csv

    return live_csv(info.id, info.header, info.created, hands)


def export_xlsx(info: GameInfo, hands: list[dict[str, Any]]) -> bytes:
    """The game as a workbook of one sheet, the rows of `game export --format csv` (its CSV log), which
    `mjcalc game settle` reads back: text cells stay text (never a formula), `game` and `chips` are numbers."""
    import io

    from ..batch.output import unneutralise
    from ..batch.xlsx import write_xlsx
    from ..game.csv_log import log_rows

    head = dict(info.header)
    head.setdefault("date", info.created[:10])
    rows = log_rows([(str(info.id), head, hands)])
    numbers = {i for i, column in enumerate(rows[0]) if column in ("game", "chips")}

    def cell(i: int, text: str) -> str | int:
        if i in numbers and text.isdigit() and text.isascii() and str(int(text)) == text:
            return int(text)
        return "'" + text if unneutralise(text) != text else text  # the reader takes one mark off: keep `'=x` as written

    out = io.BytesIO()
    write_xlsx(out, [rows[0], *([cell(i, c) for i, c in enumerate(row)] for row in rows[1:])], f"mjcalc game {info.id}")
    return out.getvalue()
