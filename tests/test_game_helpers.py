"""Helpers shared by the game and settlement tests: one-hand games built from dicts (no tests here)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import yaml

from mahjong_calc.game import RawHand, check_header, report_dict, settle_game

PLAYERS = ["A", "B", "C", "D"]  # seats E S W N


def settle_hands(variant: str, hands: list[Any], dealer: str = "D", settlement: dict[str, Any] | None = None, **header: Any) -> dict[str, Any]:
    """Settle `hands` as a game of A B C D (D deals first unless told) and return the JSON report.

    `settlement` overrides options of the variant's `settlement:` section (through a
    house ruleset that `extends:` it).
    """
    head: dict[str, Any] = {"variant": variant, "players": PLAYERS, "dealer": dealer, **header}
    with tempfile.TemporaryDirectory() as tmp:
        if settlement:
            rules = Path(tmp) / "house.yaml"
            rules.write_text(yaml.safe_dump({"extends": variant, "name": "house", "version": "1", "settlement": settlement}), encoding="utf-8")
            head = {**head, "variant": None, "rules": str(rules)}
            del head["variant"]
        game = check_header(head, [RawHand(i + 1, h) for i, h in enumerate(hands)])
        return report_dict(settle_game(game))


def changes(variant: str, hand: dict[str, Any], **kw: Any) -> dict[str, int]:
    """One hand's changes per player; fails the test if the hand was an error row."""
    report = settle_hands(variant, [hand], **kw)
    row = report["hands"][0]
    assert "error" not in row, row.get("error")
    result: dict[str, int] = row["settlement"]["changes"]
    return result
