"""A live game as the record file `mjcalc game settle FILE` reads."""

from __future__ import annotations

from typing import Any

from .model import GameInfo


def export_yaml(info: GameInfo, hands: list[dict[str, Any]]) -> str:
    """The game in the record format `mjcalc game settle FILE` reads."""
    import yaml

    doc = {**info.header, "hands": hands}
    head = f"# mjcalc game {info.id}, begun {info.created}; settle it with: mjcalc game settle FILE\n"
    return head + yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=None, width=1000)
