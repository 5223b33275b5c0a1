"""Typed errors with stable snake_case codes.

`InputError` means the request itself is wrong (CLI exit 2); `NotAWin` means the
input is well formed but the hand does not win under the variant (CLI exit 1).
"""

from __future__ import annotations

import reprlib
from typing import Self


class MjcalcError(Exception):
    """Base error: a stable `code`, a human `message`, optionally where it is."""

    exit_code = 2

    def __init__(self, code: str, message: str, position: int | None = None, source: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position
        self.source = source
        self.winner: str | None = None  # which of several winners (一炮多响) the error is about

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.position is not None:
            out["position"] = self.position
        if self.winner is not None:
            out["winner"] = self.winner
        return out

    def about_winner(self, winner: str) -> Self:
        """A copy naming one of several winners: `李: ...` and `winner` among its fields.

        A copy, since scored hands (and their errors) are cached and shared between hands.
        """
        named = type(self).__new__(type(self))
        named.__dict__.update(self.__dict__)
        named.message = f"{winner}: {self.message}"
        named.winner = winner
        named.args = (named.message,)
        return named


class InputError(MjcalcError):
    """The hand, a flag or a record cannot be understood (exit 2)."""


class RulesetError(InputError):
    """A ruleset file or `--set` override is invalid; the message names file and key."""


class NotAWin(MjcalcError):
    """A well-formed hand that is not a win under the variant's rules (exit 1)."""

    exit_code = 1


def shown(value: object, limit: int = 80) -> str:
    """A short, one-line repr of `value` for an error message: at most `limit` characters.

    Bounded however large or deeply shared the value is (an alias bomb, a 5,000-digit
    integer), and control characters come out escaped, as `repr` writes them.
    """
    try:
        text = _SHORT.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    text = "".join(ch if ch.isprintable() or ch == " " else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


class _ShortRepr(reprlib.Repr):
    """reprlib with room for one message line, and huge integers summarised, not converted."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = 100

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 300:  # str() of a 5,000-digit integer raises, and is slow well before
            return f"<an integer of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        return super().repr_str(x[: self.maxstring + 1], level)


_SHORT = _ShortRepr()
