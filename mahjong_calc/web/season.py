"""`GET /api/season`: the season view of the page, as `mjcalc stats --json` counts it, plus each game's totals in order.

`{"players": ..., "patterns": ..., "games": N, "variants": ..., "standings": [{"player", "net", "variant"}, ...],
"history": [{"game", "date", "variant", "totals": {player: n}}, ...]}` over the live games (those the token
opens, when the server is open to the network), selected by `since`/`until` (YYYY-MM-DD) as
`mjcalc stats --since/--until` selects them. Points of two variants are never added: `standings` has an
entry per player and variant, each variant's best first, the variants in the order they were first played.
The page shows one variant at a time and draws each player's cumulative net in it from `history`.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from ..live import Store


def season_answer(store: Callable[[], Store], params: Mapping[str, str], token: str | None, tokens: bool) -> tuple[int, str]:
    """The season over the selected live games, oldest first."""
    from ..game.stats import Season, parse_day, season_dict, within

    since, until = parse_day(params.get("since"), "since"), parse_day(params.get("until"), "until")
    season = Season(keep_history=True)
    with store() as s:
        for info in reversed(s.games()):
            if tokens and not (token and info.token and secrets.compare_digest(info.token.encode(), token.encode())):
                continue
            day = (info.header.get("date") or info.created)[:10]
            if not within(day, since, until):
                continue
            season.add(s.game_file(info), f"live {info.id}", day)
    data: dict[str, Any] = season_dict(season)
    data["standings"] = [{"player": n, "net": c.net, "variant": v} for v in season.variant_games for n, c in season.standings(v)]
    data["history"] = [{"game": g.game, "date": g.date, "variant": g.variant, "totals": g.totals} for g in season.history]
    return 200, json.dumps(data, ensure_ascii=False)
