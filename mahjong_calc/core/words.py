"""The catalogue of words: every user text by its English msgid, rendered in a chosen language.

GNU gettext is the machinery: a text is written once, in English, in the Python that uses
it (`N_("the hand has {count} tiles", count=n)` or an error's message); `locale/zh/LC_MESSAGES/
mjcalc.po` holds its Chinese. With no language chosen the msgid itself is shown, byte for byte
as before there was a catalogue (English, with the Chinese rule terms players know: `not 八支`).
`locale/en/...` holds English alone for the msgids that carry such Chinese terms; `--lang en`
shows those, and the msgid for every other text.

At run time only the standard library reads the catalogue: `gettext.GNUTranslations` over the
`.mo` file that setup.py compiles from the `.po` at build time (with Babel, a build
requirement). A source tree or an editable install has no `.mo` (nothing generated is
committed), so there the `.po` itself is read by `_read_po`, the small subset of the format
our own file uses (no plurals, no contexts). Either way the texts are the same.

The language: `set_language` (the CLI's `--lang`, else `language_from_env`); None means
today's default, English messages. A `Text` is formatted when it is shown, not when it is
made, so that an error costs no rendering until somebody reads it, and is read in the
language chosen by then.
"""

from __future__ import annotations

import ast
import gettext
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from .language import CHOSEN
from .language import LANGUAGES as LANGUAGES  # the chosen language is language.py's, shown here with the words
from .language import language as language
from .language import set_language as set_language
from .language import speaking as speaking

DOMAIN = "mjcalc"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
def language_of_header(value: str | None) -> str | None:
    """`zh`, `en` or None from an HTTP `Accept-Language` header: the most preferred of the two
    languages it names (`zh-CN,zh;q=0.9,en;q=0.8` -> `zh`); None when it names neither."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((value or "").split(",")[:32]):
        tag, _, params = part.partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(number)
                except ValueError:
                    q = 0.0
        lang = _language_of(tag)
        if lang is not None and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else None


def _language_of(value: str) -> str | None:
    """`zh`, `en` or None for a setting such as `zh_CN.UTF-8`, `en`, `C`."""
    low = value.strip().lower()
    if low.startswith("zh"):
        return "zh"
    if low.startswith("en"):
        return "en"
    return None


def language_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """The person's language when no `--lang` is given: MJCALC_LANG (`zh`/`en`, or a locale name
    such as `zh_CN.UTF-8`), else the locale as gettext reads it: the first set of LC_ALL,
    LC_MESSAGES, LANG decides, and only a Chinese one (`zh...`) chooses a language.

    A non-Chinese locale (`C.UTF-8`, `en_US.UTF-8`) keeps the default output: English messages
    and the bilingual tables, as before there was a choice. An MJCALC_LANG that is neither
    language is ignored, as gettext ignores a locale it has no catalogue for.
    """
    env = os.environ if environ is None else environ
    chosen = _language_of(env.get("MJCALC_LANG", ""))
    if chosen is not None:
        return chosen
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return "zh" if _language_of(value) == "zh" else None
    return None


class _PoTranslations(gettext.NullTranslations):
    """A catalogue read from a `.po` file: what `GNUTranslations` gives for the compiled `.mo`."""

    def __init__(self, catalog: dict[str, str]) -> None:
        super().__init__()
        self._catalog = catalog

    def gettext(self, message: str) -> str:
        return self._catalog.get(message, message)


def _read_po(path: Path) -> dict[str, str]:
    """{msgid: msgstr} of a `.po` file, as msgfmt compiles it: untranslated and fuzzy entries left out."""
    catalog: dict[str, str] = {}
    entry: dict[str, str] = {}
    field = ""
    fuzzy = False

    def done() -> None:
        msgid, msgstr = entry.get("msgid", ""), entry.get("msgstr", "")
        if msgid and msgstr and not fuzzy:
            catalog[msgid] = msgstr

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                done()
                entry, field, fuzzy = {}, "", True
            continue
        if line.startswith('"'):
            entry[field] = entry.get(field, "") + ast.literal_eval(line)
            continue
        key, _, rest = line.partition(" ")
        if key == "msgid" and "msgid" in entry:
            done()
            entry, fuzzy = {}, False
        field = key
        entry[field] = ast.literal_eval(rest)
    done()
    return catalog


@cache
def translations(lang: str | None) -> gettext.NullTranslations:
    """The catalogue of `lang`: the compiled `.mo` where installed, else the `.po` of the source tree."""
    if lang is None:
        return gettext.NullTranslations()  # the msgids are the texts
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if mo.is_file():
        with mo.open("rb") as fp:
            return gettext.GNUTranslations(fp)
    po = mo.with_suffix(".po")
    if po.is_file():
        return _PoTranslations(_read_po(po))
    return gettext.NullTranslations()


def translated(msgid: str, lang: str | None = None) -> str | None:
    """The catalogue's text of `msgid` in `lang` (default: the chosen one), or None if it has none."""
    lang = language() if lang is None else lang
    if lang is None:
        return msgid
    catalog: dict[str, str] = getattr(translations(lang), "_catalog", {})
    return catalog.get(msgid)


class Text:
    """A catalogue text with its named parameters, formatted when shown (`str()` or `render`).

    A parameter that is itself a `Text` is rendered in the same language.
    """

    __slots__ = ("msgid", "params")

    def __init__(self, msgid: str, params: Mapping[str, object]) -> None:
        self.msgid = msgid
        self.params = params

    def render(self, lang: str | None = None) -> str:
        """The text in `lang` (default: the chosen language); the English msgid where untranslated."""
        lang = language() if lang is None else lang
        template = translated(self.msgid, lang) or self.msgid
        if not self.params:
            return template
        values = {k: v.render(lang) if isinstance(v, Text) or hasattr(v, "render") else v for k, v in self.params.items()}
        return template.format(**values)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"N_({self.msgid!r}, **{dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.msgid, dict(self.params)) == (other.msgid, dict(other.params))

    def __hash__(self) -> int:
        # by the parameters too: texts of one msgid (a refusal's, with its numbers) are keys of one cache
        try:
            return hash((self.msgid, frozenset(self.params.items())))
        except TypeError:  # a parameter that cannot be hashed (a list): the msgid alone
            return hash(self.msgid)


def N_(msgid: str, **params: object) -> Text:
    """Mark `msgid` for the catalogue; it is translated and formatted with `params` when shown."""
    return Text(msgid, params)


def _(msgid: str, **params: object) -> str:
    """`msgid` in the chosen language now, formatted with `params`."""
    return Text(msgid, params).render()


class _Word:
    """What a word that renders itself shares: shown in the language chosen now, equal by its parts."""

    __slots__ = ()

    def render(self, lang: str | None = None) -> str:
        raise NotImplementedError

    def _parts(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.render()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._parts() == other._parts()

    def __hash__(self) -> int:
        return hash(self._parts())


class Named(_Word):
    """A word the program has in both languages (a pattern's or a seat's name), as a parameter of a
    `Text`: Chinese in Chinese, English in English, and `plain` (default: the Chinese) with no
    language chosen, as the texts read before there was a choice."""

    __slots__ = ("en", "plain", "zh")

    def __init__(self, zh: str, en: str, plain: str | None = None) -> None:
        self.zh, self.en = zh, en
        self.plain = zh if plain is None else plain

    def render(self, lang: str | None = None) -> str:
        lang = CHOSEN[0] if lang is None else lang
        return self.zh if lang == "zh" else self.en if lang == "en" else self.plain

    def _parts(self) -> tuple[object, ...]:
        return self.zh, self.en, self.plain


class Joined(_Word):
    """Parts (texts or strings) joined by `sep` when shown, each in the language chosen then."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts: tuple[object, ...], sep: str) -> None:
        self.parts, self.sep = parts, sep

    def render(self, lang: str | None = None) -> str:
        return self.sep.join(p.render(lang) if hasattr(p, "render") else str(p) for p in self.parts)

    def _parts(self) -> tuple[object, ...]:
        return self.parts, self.sep


class Shown(_Word):
    """A catalogue text as a parameter that screens with no language chosen showed otherwise: as
    its key (`plain`: `qi_dui`, `pair`) or in Chinese (`plain_lang="zh"`: a seat, 下家); in a chosen
    language, the text in that language."""

    __slots__ = ("plain", "plain_lang", "text")

    def __init__(self, text: Text, plain: str | None = None, plain_lang: str | None = None) -> None:
        self.text, self.plain, self.plain_lang = text, plain, plain_lang

    def render(self, lang: str | None = None) -> str:
        lang = CHOSEN[0] if lang is None else lang
        if lang is None:
            return self.plain if self.plain is not None else self.text.render(self.plain_lang)
        return self.text.render(lang)

    def _parts(self) -> tuple[object, ...]:
        return self.text, self.plain, self.plain_lang
