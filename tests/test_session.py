"""A scoring session (api/session.py): the checked facts of a combination of flags made once,
kept without a traceback, raised as a fresh copy each time; and a memo's one size policy."""

from __future__ import annotations

import pytest

from mahjong_calc.api import Session, score_hand
from mahjong_calc.core import memo
from mahjong_calc.core.errors import MjcalcError

HAND = "111m222p333s444z5z"


@pytest.mark.parametrize(("flags", "code"), [
    ({"variant": "wuhu315", "wild": "3m"}, "flag_not_in_variant"),  # the variant refuses the flag
    ({"variant": "wuhu315", "self_draw": True, "discarder": "next"}, "conflicting_flags"),  # make_context refuses the flags
    ({"variant": "pujiang", "piao": True, "self_draw": True}, "bad_piao"),
])
def test_a_refusal_is_kept_without_a_traceback_and_raised_afresh(flags: dict[str, object], code: str) -> None:
    session = Session()
    raised = []
    for _ in range(2):
        with pytest.raises(MjcalcError) as info:
            score_hand("123456m13m99p555p2m", session=session, **flags)
        assert info.value.code == code
        raised.append(info.value)
    assert raised[0] is not raised[1]  # a copy each time: a raised error gathers its frames
    kept = [err for facts in session.facts.made.values() for err in (facts.refused, facts.context) if isinstance(err, MjcalcError)]
    assert kept and all(err.__traceback__ is None for err in kept)


def test_equal_values_of_other_types_are_other_facts() -> None:
    """True == 1, but a count of True is refused where a count of 1 is taken: the cache tells them apart."""
    session = Session()
    with pytest.raises(MjcalcError):
        score_hand("3s3s3s147m2p5p9p1z1z", variant="pujiang", melds=["555z"], wild="3s", self_draw=True, piao=True, session=session)
    assert score_hand("3s3s3s147m2p5p9p1z1z", variant="pujiang", melds=["555z"], wild="3s", self_draw=True, piao=0, session=session).value > 0


def test_a_memo_starts_afresh_at_its_limit() -> None:
    assert memo.Memo().limit == memo.LIMIT  # the one policy
    kept = memo.Memo(3)
    for i in range(3):
        kept.keep(i, str(i))
    assert len(kept) == 3 and kept.get(2) == "2"
    kept.keep(3, "3")
    assert len(kept) == 1 and kept.get(0) is None and kept.get(3) == "3"


def test_unknown_flags_are_a_type_error() -> None:
    with pytest.raises(TypeError, match="moon"):
        score_hand(HAND, variant="pujiang", moon=True)
