"""The events of a game folded into the hands in play: pure, no SQLite.

A `hand` event enters a hand, `undo` takes back the last one in play, `redo` puts back the
last one undone (while nothing else changed since), `edit` replaces a hand and `delete`
removes one; a hand keeps the id of the event that entered it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    """One stored event of a game: its sequence number, kind (a hand, an undo), body and time."""

    seq: int
    kind: str
    body: dict[str, Any]
    at: str
    text: str = ""  # the body as stored

class BadEvents(ValueError):
    """The events do not make a game (an edit of a hand not in play, a body without its fields): damage."""


def _target(ev: Event, key: str) -> int:
    value = ev.body.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadEvents(f"event {ev.seq}: {ev.kind} without the hand it is about")
    return value


Hands = list[tuple[int, dict[str, Any]]]  # (id, hand): the id is the seq of the event that entered the hand


def apply_event(stack: Hands, undone: Hands, ev: Event) -> None:
    """One event on the hands in play (`stack`) and the hands a redo can put back (`undone`)."""
    if ev.kind == "hand":
        stack.append((ev.seq, ev.body))
        undone.clear()
    elif ev.kind == "undo":
        if stack:
            undone.append(stack.pop())
    elif ev.kind == "redo":
        if undone:
            stack.append(undone.pop())
    elif ev.kind in ("edit", "delete"):
        target = _target(ev, "edits" if ev.kind == "edit" else "deletes")
        at = next((i for i, (hid, _) in enumerate(stack) if hid == target), None)
        if at is None:
            raise BadEvents(f"event {ev.seq}: {ev.kind} of a hand that is not in play")
        if ev.kind == "delete":
            del stack[at]
        else:
            hand = ev.body.get("hand")
            if not isinstance(hand, dict):
                raise BadEvents(f"event {ev.seq}: an edit without its hand")
            stack[at] = (target, hand)
        undone.clear()


def replay(events: list[Event]) -> tuple[Hands, Hands]:
    """(the hands in play, the hands undone that a redo can put back), each as (id, hand).
    An edit keeps the hand's id and place."""
    stack: Hands = []
    undone: Hands = []
    for ev in events:
        apply_event(stack, undone, ev)
    return stack, undone


def history_rows(events: Iterable[Event]) -> Iterator[dict[str, Any]]:
    """Every event as `game history` shows it, one at a time: seq, kind, at, the number of the hand
    it is about at that moment (`no`), and the hand entered, changed, undone or redone."""
    before: Hands = []
    undone: Hands = []
    for ev in events:
        row: dict[str, Any] = {"seq": ev.seq, "kind": ev.kind, "at": ev.at}
        if ev.kind == "hand":
            row |= {"no": len(before) + 1, "hand": ev.body}
        elif ev.kind == "undo" and before:
            row |= {"no": len(before), "hand": before[-1][1], **ev.body}
        elif ev.kind == "redo" and undone:
            row |= {"no": len(before) + 1, "hand": undone[-1][1], **ev.body}
        else:
            row |= ev.body
        apply_event(before, undone, ev)
        yield row


def history(events: list[Event]) -> list[dict[str, Any]]:
    """Every event as `game history` shows it (`history_rows`)."""
    return list(history_rows(events))
