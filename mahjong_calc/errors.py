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
