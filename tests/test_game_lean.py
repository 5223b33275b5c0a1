"""A game's fold on the lean path (api/row.score_win) against the full path (score), every variant.

On seeded random games of every shipped variant (test_row.py's random hands with every flag
the variant takes in a game record, melds fed by other players, concealed kongs, 一炮多响,
draws, hands that do not win, bad fields, 子 that run out), `game settle --json`'s text, the
table's dicts and a season's statistics must be the same whether the lean path answers a
winner's tiles or `score` does for every one; and the lean path must answer most wins.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from test_row import random_record

from mahjong_calc.api import row as lean_row
from mahjong_calc.core.seats import absolute
from mahjong_calc.game import read_game, report_dict, report_json, settle_game, winner
from mahjong_calc.game.fields import game_fields
from mahjong_calc.game.log import open_games
from mahjong_calc.game.stats import Season, season_dict
from mahjong_calc.rules.loader import load_ruleset, shipped_names

PLAYERS = ["王", "李", "张", "赵"]
RELATIVE = {"next": "next", "opposite": "opposite", "previous": "previous", "下家": "next"}
HANDS = 120  # a game
GAMES = 4  # a variant


def _hand(rng: random.Random, variant: str) -> dict[str, Any]:
    """One hand of a game record: a drawn hand, or a random record's tiles and flags with a winner."""
    if rng.random() < 0.08:
        return {"draw": True}
    record = random_record(rng, variant)
    winner = rng.randrange(4)
    others = [p for i, p in enumerate(PLAYERS) if i != winner]
    hand: dict[str, Any] = {"winner": PLAYERS[winner], "hand": record["hand"]}
    melds = record.get("melds", [])
    if melds:
        hand["melds"] = [f"{m}@{rng.choice(others)}" if rng.random() < 0.6 else m for m in melds]
    if "concealed_kongs" in record:
        hand["concealed_kongs"] = record["concealed_kongs"]
    if "discarder" in record:
        position = RELATIVE[record["discarder"]]
        hand["discarder"] = PLAYERS[absolute(winner, position)]  # type: ignore[arg-type]
    for name in game_fields().record_flags:
        if name in record and name != "discarder":
            hand[name] = record[name]
    if "win" in record:
        hand["win"] = record["win"]
    if variant == "chizhou" and rng.random() < 0.2:
        hand["hua"] = {rng.choice(others): rng.randint(0, 3)}
    if variant == "pujiang" and rng.random() < 0.1:
        hand["piao_by"] = rng.choice(PLAYERS)
        hand["piao_count"] = rng.randint(1, 2)
    if rng.random() < 0.03:
        hand["dealer_seat"] = "next"  # a computed field: an error row on both paths
    if rng.random() < 0.05 and "discarder" in hand:  # 一炮多响, where the variant allows it
        second = next(p for p in others if p != hand["discarder"])
        first = {k: v for k, v in hand.items() if k not in ("discarder", "winner")}
        hand = {"discarder": hand["discarder"], "winners": [{"winner": hand["winner"], **first},
                                                            {"winner": second, "hand": record["hand"]}]}
    return hand


def _game(rng: random.Random, variant: str) -> str:
    chips = rng.choice([0, 10**9, 200])  # no ledger, a ledger that lasts, one that may run out
    header = {"variant": variant, "players": PLAYERS, "dealer": rng.choice(PLAYERS), "chips": chips}
    lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(_hand(rng, variant), ensure_ascii=False) for _ in range(HANDS)]
    return "\n".join(lines) + "\n"


def _games(variant: str, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(GAMES):
        yield _game(rng, variant)


class _Counted:
    """score_win, counting the wins it answers (a RowResult or a refusal, not None)."""

    def __init__(self) -> None:
        self.answered = 0
        self.asked = 0

    def __call__(self, *args: Any) -> Any:
        out = lean_row.score_win(*args)
        self.asked += 1
        self.answered += out is not None
        return out


def _settled(path: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """game settle --json's text, the table's dicts, and a season of the game, under one path."""
    text = report_json(settle_game(read_game(path)))
    table = report_dict(settle_game(read_game(path)))
    season = Season()
    for i, game in enumerate(open_games(path), 1):
        season.add(game, f"g{i}", None)
    return text, table, season_dict(season)


@pytest.mark.parametrize("variant", shipped_names())
def test_a_games_lean_fold_is_the_full_paths(variant: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    load_ruleset(variant)
    counted = _Counted()
    answered = asked = 0
    for i, text in enumerate(_games(variant, seed=len(variant))):
        path = tmp_path / f"game{i}.jsonl"
        path.write_text(text, encoding="utf-8")
        monkeypatch.setattr(winner, "lean_win", counted)
        lean = _settled(str(path))
        monkeypatch.setattr(winner, "lean_win", lambda *args: None)  # every win through `score`
        full = _settled(str(path))
        assert lean[0] == full[0], f"game {i}"
        assert lean[1] == full[1], f"game {i}"
        assert lean[2] == full[2], f"game {i}"
        answered, asked = counted.answered, counted.asked
    rows = json.loads(lean[0])["hands"]
    assert any("error" in r for r in rows) and any("result" in r for r in rows)  # both kinds of row are compared
    assert asked and answered >= asked // 2, f"the lean path answered {answered} of {asked} wins"


@pytest.mark.parametrize(("variant", "hand", "melds"), [("wuhu315", "123456789m11p", ["555s"]), ("chizhou", "123m456p11m", ["4z4z4z4z", "5z5z5z"])])
def test_a_row_result_reads_as_the_score_result(variant: str, hand: str, melds: list[str]) -> None:
    """What a settler or a report reads of a RowResult is what it reads of the ScoreResult."""
    from mahjong_calc.api.score import score
    from mahjong_calc.core.hand import build_hand, make_context

    rs = load_ruleset(variant)
    ctx = make_context(self_draw=True)
    lean = lean_row.score_win(rs, ctx, hand, None, melds, [])
    full = score(build_hand(hand, melds), ctx, rs)
    assert isinstance(lean, lean_row.RowResult)
    assert (lean.value, lean.patterns, lean.payments, lean.hand.to_dict(), lean.extra, lean.total) == (
        full.value, full.patterns, full.payments, full.hand.to_dict(), full.extra, full.total)
    assert lean.hand.melds == full.hand.melds and lean.hand.win_tile == full.hand.win_tile
    assert lean.to_json() == full.to_json() and lean.to_dict() == full.to_dict()
