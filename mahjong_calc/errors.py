"""Typed errors with stable snake_case codes.

`InputError` means the request itself is wrong (CLI exit 2); `NotAWin` means the
input is well formed but the hand does not win under the variant (CLI exit 1).
"""

from __future__ import annotations


class MjcalcError(Exception):
    """Base error: a stable `code`, a human `message`, optionally where it is."""

    exit_code = 2

    def __init__(self, code: str, message: str, position: int | None = None, source: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position
        self.source = source

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.position is not None:
            out["position"] = self.position
        return out


class InputError(MjcalcError):
    """The hand, a flag or a record cannot be understood (exit 2)."""


class RulesetError(InputError):
    """A ruleset file or `--set` override is invalid; the message names file and key."""


class NotAWin(MjcalcError):
    """A well-formed hand that is not a win under the variant's rules (exit 1)."""

    exit_code = 1


def shown(value: object, limit: int = 80) -> str:
    """`repr(value)` for a message: control characters escaped, at most about `limit` characters.

    Safe for anything a user can send: an int too long to print, a lone surrogate, a
    terminal escape sequence, a megabyte of text.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"<an integer of {value.bit_length()} bits>"
    if isinstance(value, str) and len(value) > limit:
        text = repr(value[:limit])
    else:
        try:
            text = repr(value)
        except Exception:  # noqa: BLE001 - an unprintable object must still give a message
            text = f"<{type(value).__name__}>"
    text = "".join(ch if ch.isprintable() or ch == " " else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
