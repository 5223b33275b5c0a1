"""The compiled Wuhu scorer for long games, where it is built (see `accel`).

`mjcalc batch` scores plain Wuhu records with `_wuhu_accel`; a game does the same for
each winner's tiles. The compiled scorer answers with the result's JSON text, the
value, the payments and the patterns, which is all a settler reads; anything it
declines takes the Python path. Its JSON is byte for byte the Python scorer's
(tests/test_wuhu_accel.py), so a game settles the same with or without it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from ..core.hand import SEATS, Hand, parse_meld
from ..core.result import ScoreResult
from ..core.tiles import parse_tile
from ..rules.ruleset import Ruleset


class Compiled:
    """A compiled plan for one game's ruleset, and the record key order it reads."""

    def __init__(self, plan: Any, fields: tuple[str, ...], ruleset: Ruleset[Any, Any, Any]) -> None:
        from ..core.flags import BY_NAME

        self.plan = plan
        self.fields = fields
        self.key_of = itemgetter(*fields)
        self.defaults = {name: BY_NAME[name].default for name in fields}  # the fields a game does not set
        self.ruleset = ruleset
        self.title = (ruleset.data["title"]["zh"], ruleset.data["title"]["en"])

    def score(self, values: Mapping[str, Any]) -> tuple[ScoreResult, bytes] | None:
        """(a ScoreResult carrying what a settler reads, the result's JSON body) or None (declined).

        `values` holds the record fields a game sets; the others take their defaults.

        Raises NotAWin just as the Python scorer would.
        """
        key = self.key_of({**self.defaults, **values})
        answer = self.plan.score(key)
        if answer is None:
            return None
        if len(answer) == 2:
            from ..variants.wuhu.score import not_a_win

            raise not_a_win(answer[0], answer[1], self.ruleset)
        body, value, _total, pays, patterns = answer
        hand_text: str = values["hand"]
        melds = tuple(parse_meld(m) for m in values["melds"]) + tuple(parse_meld(k, concealed=True) for k in values["concealed_kongs"])
        win = parse_tile(values["win"] or hand_text[-2:])  # the compiled path reads plain 123m notation only
        result = ScoreResult(
            variant=self.ruleset.name,
            ruleset_version=self.ruleset.version,
            title=self.title,
            hand=Hand((), melds, win),
            value=value,
            items=(),
            patterns=tuple(patterns),
            payments=dict(zip(SEATS, pays, strict=True)),
            decomposition={},
        )
        return result, body


def compiled_for(ruleset: Ruleset[Any, Any, Any]) -> Compiled | None:
    """The compiled scorer for `ruleset`, or None (not Wuhu, not built, MJCALC_NO_ACCEL=1)."""
    from ..accel import compile_plan
    from ..core.records import KEY_FIELDS

    plan = compile_plan(ruleset)
    if plan is None:
        return None
    return Compiled(plan, tuple(KEY_FIELDS), ruleset)


def result_json(body: bytes) -> dict[str, Any]:
    """The compiled scorer's JSON text (without its opening brace) as a dict."""
    out: dict[str, Any] = json.loads(b"{" + body)
    return out
