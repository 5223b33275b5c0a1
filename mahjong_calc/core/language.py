"""The language texts are shown in: chosen for the process (`set_language`) or for one
context (`speaking`, a request of the page), read by `language()` wherever a text is rendered.

Apart from words.py (the catalogue) so that it can be compiled: the batch engine asks for the
language twice a record, and a compiled call of a compiled function is a C call.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Final

LANGUAGES: Final = ("zh", "en")

CHOSEN: Final[list[str | None]] = [None]  # None: no language chosen (English messages, bilingual tables)
# the language of one request of the page (`speaking`), over the process's own; a 1-tuple when set
_SPOKEN: Final[ContextVar[tuple[str | None] | None]] = ContextVar("mjcalc_language", default=None)


def set_language(lang: str | None) -> None:
    """Show texts in `lang` (`zh` or `en`) from now on; None: as with no language chosen (English)."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"not a language of mjcalc: {lang!r}")
    CHOSEN[0] = lang


def language() -> str | None:
    """The language chosen with `speaking` for this context, else with `set_language` (None: none)."""
    spoken = _SPOKEN.get()
    return CHOSEN[0] if spoken is None else spoken[0]


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Texts rendered in this context (a request of the page, its threads) are in `lang`; None
    leaves the process's language (`set_language`). Other threads and requests are not affected."""
    if lang is None:
        yield
        return
    if lang not in LANGUAGES:
        raise ValueError(f"not a language of mjcalc: {lang!r}")
    token = _SPOKEN.set((lang,))
    try:
        yield
    finally:
        _SPOKEN.reset(token)
