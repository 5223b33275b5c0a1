"""Golden tables: seeded random records and games of every variant, in tile notation, with the
answers of the tree that had two scoring paths (34c90c6), each path held to the other there; the
games' since an error row whose winner can be read passes the deal on as that winner says, and
--heavenly is the dealer's.

Records (records.tsv): every flag a variant takes, melds, concealed kongs, a chosen winning tile,
财神 and 白板, clashing flags and hands that do not win, under the shipped rulesets and under
`--set`. Games (games.tsv): game records of 120 hands with fed melds, 一炮多响, draws, bad fields
and 子 that run out; each game's line is its totals and chips. tests/test_golden.py scores them
through `mjcalc batch` and `mjcalc game settle` and compares.

    python tests/golden.py --python /path/to/venv/bin/python    # write the tables from the mjcalc installed there
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from mahjong_calc.core.flags import by_name  # noqa: E402
from mahjong_calc.core.seats import absolute  # noqa: E402
from mahjong_calc.game.fields import game_fields  # noqa: E402
from mahjong_calc.rules.loader import load_ruleset, shipped_names  # noqa: E402

TABLES = HERE / "data" / "golden"
RECORDS = 300  # a variant, and a --set
# (variant, --set): rulesets the records are also scored under
OVERRIDES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("wuhu315", ("options.ya_dang_edge_wait=true", "options.ya_dang_single_wait=true", "numbers.jiao=20")),
    ("chizhou", ("options.la_zi_needs_no_flowers=false", "numbers.cap=4")),
    ("pujiang", ("numbers.fan_multiplier=3",)),
    ("pujiang", ("options.qiang_gang_amount=robbed_fan", "options.subtract_pungs=before_fan")),
    ("pujiang", ("options.qiang_gang_amount=robbed_fan_doubling", "options.white_as_wild_face=false")),
)
FLAG_ORDER = ("self_draw", "discarder", "dealer", "dealer_seat", "after_kong", "robbing_kong", "heavenly", "earthly", "wild", "piao",
              "opponent_pungs", "robbed_fan")


SEATS = ("next", "opposite", "previous", "下家")


def _text(tiles: list[int]) -> str:
    return "".join(f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in tiles)


def _takes(flag: str, scorer: str) -> bool:
    variants = by_name()[flag].variants
    return variants is None or scorer in variants


def random_record(rng: random.Random, variant: str) -> dict[str, Any]:
    """A hand of a pair and four sets (now and then a broken one), melds, and random flags."""
    rs = load_ruleset(variant)
    suits = ["mps".index(s) for s in rs.data["tiles"]["suits"]]
    honours = [26 + n for n in rs.data["tiles"]["honours"]]
    chow_melds = rs.data["tiles"]["chow_melds"]
    counts = [0] * 34
    main = rng.choice(suits)
    concealed: list[int] = []
    melds: list[str] = []
    kongs: list[str] = []
    for _ in range(4):
        for _attempt in range(30):
            if honours and rng.random() < 0.15:
                kind, first = "pung", rng.choice(honours)
            else:
                suit = main if rng.random() < 0.6 else rng.choice(suits)
                kind = "chow" if rng.random() < 0.5 else "pung"
                first = suit * 9 + rng.randrange(7 if kind == "chow" else 9)
            tiles = [first, first + 1, first + 2] if kind == "chow" else [first] * 3
            if all(counts[t] + tiles.count(t) <= 4 for t in tiles):
                break
        for t in tiles:
            counts[t] += 1
        roll = rng.random()
        if kind == "pung" and roll < 0.12 and counts[first] == 3:
            counts[first] += 1
            (kongs if rng.random() < 0.5 else melds).append(_text([first] * 4))
        elif roll < 0.25 and (kind == "pung" or chow_melds or rng.random() < 0.1):
            melds.append(_text(tiles))
        else:
            concealed += tiles
    pair = rng.choice([t for t in range(34) if counts[t] <= 2 and (t // 9 in suits or t in honours)])
    concealed += [pair, pair]
    if rng.random() < 0.08:  # a broken hand: not a win, or not 14 tiles
        concealed[rng.randrange(len(concealed))] = rng.choice(suits) * 9 + rng.randrange(9)
    rng.shuffle(concealed)
    record: dict[str, Any] = {"variant": variant, "hand": _text(concealed)}
    if melds:
        record["melds"] = melds
    if kongs:
        record["concealed_kongs"] = kongs
    scorer = rs.scorer
    roll = rng.random()  # self-drawn, won on a discard, both (a clash) or neither
    if roll < 0.5 or roll > 0.95:
        record["self_draw"] = True
    if roll >= 0.5 and roll < 0.97:
        record["discarder"] = rng.choice(SEATS)
    if rng.random() < 0.2:
        record["win"] = _text([rng.choice(concealed)])
    for flag in ("dealer", "after_kong", "robbing_kong", "heavenly", "earthly"):
        if _takes(flag, scorer) and rng.random() < (0.5 if flag == "after_kong" and kongs else 0.06):
            record[flag] = True
    if _takes("dealer_seat", scorer) and rng.random() < 0.15:
        record["dealer_seat"] = rng.choice(SEATS)
    if _takes("wild", scorer) and rng.random() < 0.4:
        record["wild"] = _text([rng.choice(concealed)])
    if _takes("piao", scorer) and rng.random() < 0.15:
        record["piao"] = rng.randint(0, 3)
    if _takes("opponent_pungs", scorer) and rng.random() < 0.15:
        record["opponent_pungs"] = [rng.randint(0, 2) for _ in range(3)]
    if _takes("robbed_fan", scorer) and rng.random() < 0.05:
        record["robbed_fan"] = rng.randint(0, 4)
    return record


def pujiang_record(rng: random.Random) -> dict[str, Any]:
    """A Pujiang hand that often wins: mostly pungs, or seven pairs, with 财神 (some held, some 白板
    that may play as its face, now and then three), and self-draw or 抢杠, 飘, opponents' pungs."""
    wild = rng.randrange(34)
    tiles: list[int] = []
    if rng.random() < 0.3:  # 七对
        faces = rng.sample(range(34), 7)
        if rng.random() < 0.2:
            faces[1] = faces[0]  # four alike
        for face in faces:
            tiles += [face, face]
    else:
        for _ in range(4):
            first = rng.randrange(34)
            if rng.random() < 0.25 and first % 9 <= 6 and first < 27:
                tiles += [first, first + 1, first + 2]
            else:
                tiles += [first] * 3
        pair = rng.randrange(34)
        tiles += [pair, pair]
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):  # wilds in place of some tiles
        tiles[rng.randrange(len(tiles))] = wild
    if rng.random() < 0.2:  # 白板, which may stand for the 财神's face
        tiles[rng.randrange(len(tiles))] = 33
    if rng.random() < 0.05:
        tiles[:3] = [wild] * 3  # 三财神
    rng.shuffle(tiles)
    record: dict[str, Any] = {"variant": "pujiang", "hand": _text(tiles)}
    if rng.random() < 0.7:
        record["wild"] = _text([wild])
    if rng.random() < 0.3:
        record["win"] = _text([rng.choice(tiles)])
    if rng.random() < 0.2:
        record["robbing_kong"] = True
        record["discarder"] = rng.choice(SEATS[:3])
        if rng.random() < 0.5:
            record["robbed_fan"] = rng.randint(0, 3)
    else:
        record["self_draw"] = True
    for flag in ("dealer", "after_kong"):
        if rng.random() < 0.15:
            record[flag] = True
    if rng.random() < 0.2:
        record["piao"] = rng.randint(1, 3)
    if rng.random() < 0.3:
        record["opponent_pungs"] = [rng.randint(0, 2) for _ in range(3)]
    return record


PLAYERS = ["王", "李", "张", "赵"]
RELATIVE = {"next": "next", "opposite": "opposite", "previous": "previous", "下家": "next"}
HANDS = 120  # a game
GAMES = 3  # a variant


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



def records(variant: str, seed: int, pujiang_kinds: bool = False) -> Iterator[dict[str, Any]]:
    """RECORDS seeded records of a variant (with `pujiang_kinds`, drawn to win with 财神, 白板, 七对, 抢杠)."""
    rng = random.Random(seed)
    for _ in range(RECORDS):
        yield pujiang_record(rng) if pujiang_kinds else random_record(rng, variant)


def record_sets() -> Iterator[tuple[str, tuple[str, ...], list[dict[str, Any]]]]:
    """Each set of records the table holds: (name, --set, records)."""
    for variant in shipped_names():
        yield variant, (), list(records(variant, len(variant)))
    for i, (variant, overrides) in enumerate(OVERRIDES):
        yield variant, overrides, list(records(variant, 7 + i))
    yield "pujiang", (), list(records("pujiang", 31, pujiang_kinds=True))


def flags_text(record: dict[str, Any]) -> str:
    """A record's flags as the table writes them: `self_draw discarder=next piao=2 opponent_pungs=1,0,2`."""
    parts = []
    for name in FLAG_ORDER:
        if name not in record:
            continue
        value = record[name]
        if value is True:
            parts.append(name)
        elif isinstance(value, list):
            parts.append(f"{name}={','.join(str(v) for v in value)}")
        else:
            parts.append(f"{name}={value}")
    return " ".join(parts) or "-"


def parse_flags(text: str) -> dict[str, Any]:
    """`flags_text` read back: the record's flags, typed by their kind."""
    out: dict[str, Any] = {}
    for part in text.split():
        if part == "-":
            continue
        name, _, value = part.partition("=")
        kind = by_name()[name].kind
        if not value:
            out[name] = True
        elif kind == "pungs":
            out[name] = [int(v) for v in value.split(",")]
        elif kind in ("count", "maybe_count"):
            out[name] = int(value)
        else:
            out[name] = value
    return out


def answer_text(row: dict[str, Any]) -> str:
    """A batch row as the table writes it: `value next/opposite/previous patterns`, or `!code` (`?code` not a win)."""
    if "reason" in row:
        return "?" + row["reason"]["code"]
    if "error" in row:
        return "!" + row["error"]["code"]
    pays = row["payments"]
    return f"{row['value']} {pays['next']}/{pays['opposite']}/{pays['previous']} {','.join(row['patterns']) or '-'}"


def record_line(set_name: str, overrides: tuple[str, ...], record: dict[str, Any], answer: str) -> str:
    melds = ",".join(record.get("melds", [])) or "-"
    kongs = ",".join(record.get("concealed_kongs", [])) or "-"
    return "\t".join([set_name, ";".join(overrides) or "-", record["hand"], melds, kongs, record.get("win", "-"), flags_text(record), answer])


def games(variant: str) -> Iterator[str]:
    """GAMES seeded game records (JSON Lines) of a variant."""
    yield from _games(variant, seed=len(variant))


def game_answer(report: dict[str, Any]) -> str:
    """A settled game as the table writes it: each hand (`d` drawn, `!code` an error row, else what
    the winners took in all), each player's total, the chips where the game keeps them, and where it ended."""
    hands = []
    for row in report["hands"]:
        if "error" in row:
            hands.append("!" + row["error"]["code"])
        elif row.get("draw"):
            hands.append("d")
        else:
            hands.append(str(sum(v for v in row["settlement"]["changes"].values() if v > 0)))
    totals = " ".join(f"{name}={value}" for name, value in report["totals"].items())
    chips = report.get("chips")
    chips_text = " ".join(f"{name}={value}" for name, value in chips.items()) if chips else "-"
    return f"{' '.join(hands)}\t{totals}\t{chips_text}\t{report['ended_at']}"


# the batch engine's answers under --set (batch's own --set is checked against wuhu315 before any record is read)
_SCORE = """import json, sys
from mahjong_calc.batch import score_records
from mahjong_calc.batch.evaluate import Defaults, configure
configure(Defaults(overrides=tuple(sys.argv[1:])))
for row in score_records([json.loads(line) for line in sys.stdin]):
    print(json.dumps(row, ensure_ascii=False))
"""


def write(python: str) -> None:
    """Write the tables from the answers of the mjcalc `python` has installed (run from outside this tree)."""
    lines = ["# set\t--set\thand\tmelds\tconcealed_kongs\twin\tflags\tvalue next/opposite/previous patterns | !error | ?not a win"]
    for name, overrides, rows in record_sets():
        done = subprocess.run([python, "-c", _SCORE, *overrides], input="".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                              capture_output=True, text=True, check=False, cwd="/")
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(answers) == len(rows), done.stderr
        lines += [record_line(name, overrides, r, answer_text(a)) for r, a in zip(rows, answers, strict=True)]
    (TABLES / "records.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines = ["# variant\tgame\teach hand\ttotals\tchips\tended_at"]
    for variant in shipped_names():
        for i, text in enumerate(games(variant)):
            done = subprocess.run([python, "-m", "mahjong_calc", "game", "settle", "-", "--json"], input=text, capture_output=True, text=True,
                                  check=False, cwd="/")
            lines.append(f"{variant}\t{i}\t{game_answer(json.loads(done.stdout))}")
    (TABLES / "games.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", required=True, help="the Python whose installed mjcalc gives the answers the tables keep")
    write(parser.parse_args().python)
