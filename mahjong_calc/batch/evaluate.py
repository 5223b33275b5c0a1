"""One record to one outcome: parse, check, score (cached), never raise.

Everything that can go wrong with one record becomes that record's outcome: bad
input is an `error` with its code, a hand that is not a win is a `not_a_win`
with its reason, and anything unforeseen (a bug, a number too large to print, a
nesting too deep) is an `error` with code `internal_error`, so the run goes on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from itertools import chain
from operator import itemgetter
from typing import Any, Final, NamedTuple

from ..api import resolve_ruleset, score_hand
from ..api.row import score_row
from ..compiled import kernel_compiled
from ..core.batch_record import Key, RecordId, is_text, normalize, normalize_csv, record_id, record_kinds, score_kwargs
from ..core.errors import InputError, MjcalcError, NotAWin
from ..core.flags import derived, in_field_words, key_fields
from ..core.language import language
from ..core.result import ScoreResult
from ..present.errors import error_dict, error_where
from ..rules.ruleset import Ruleset
from .items import CSV, JSON, LINES, OBJ, RECORD_LIMIT, RawRecord

WIN: Final = "win"
NOT_A_WIN: Final = "not_a_win"
ERROR: Final = "error"
CACHE_SIZE: Final = 8192
CACHED_TEXT: Final = 4096  # characters of text in a record the cache may keep (8,192 of those at most); a larger one is scored afresh
MESSAGE_LIMIT: Final = 200  # characters of an unforeseen exception's text kept in a message


class Outcome(NamedTuple):
    """What the engine keeps of one result: its JSON body text and summary facts.

    A NamedTuple, not a dataclass: one is made per record, and tuples are made fastest.
    """

    status: str
    body: bytes  # json.dumps(result) without its opening brace, UTF-8
    variant: str | None = None
    value: int = 0
    total: int = 0
    payments: tuple[int, ...] = ()
    patterns: tuple[str, ...] = ()
    code: str = ""
    message: str = ""
    compiled: bool = False  # answered by the compiled kernel (a mypyc build)
    where: str = ""  # an error's place in its text: ` at column 3: 12[x]3m` (CSV rows keep it)
    extra: Mapping[str, Any] | None = None  # --extra-fields keep: the record's keys that are not fields, echoed


_new_outcome: Final = tuple.__new__


def _dumps(body: dict[str, Any]) -> bytes:
    text = json.dumps(body, ensure_ascii=False)[1:]
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate somewhere: JSON escapes keep it valid UTF-8
        return json.dumps(body)[1:].encode("ascii")


def _short(text: str) -> str:
    """`text` cut to MESSAGE_LIMIT characters, control characters escaped (messages are one line)."""
    text = text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "…"
    return text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text


def internal_error(exc: BaseException) -> InputError:
    """An unforeseen failure on one record, as that record's error."""
    return InputError("internal_error", "internal error ({name}: {exc}); please report this record", name=type(exc).__name__, exc=_short(str(exc)))


def error_outcome(err: MjcalcError, variant: str | None = None) -> Outcome:
    status = NOT_A_WIN if isinstance(err, NotAWin) else ERROR
    if len(err.message) > MESSAGE_LIMIT * 4:  # never echo a huge value back
        err = type(err)(err.code, _short(err.message))
    return Outcome(status, _dumps(error_dict(err)), variant, code=err.code, message=err.message, where=error_where(err))


def _win_outcome(result: ScoreResult, compiled: bool) -> Outcome:
    try:
        body = result.to_json()[1:].encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate somewhere: JSON escapes keep it valid UTF-8
        body = _dumps(result.to_dict())
    pays = result.payments
    return Outcome(
        WIN, body, result.variant, result.value, result.total,
        (pays["next"], pays["opposite"], pays["previous"]), tuple(result.patterns), compiled=compiled,
    )


@lru_cache(maxsize=64)
def _compiled(variant: str | None, defaults: Defaults) -> bool:
    """Whether a record of `variant` is scored by a compiled kernel (asked once per variant, not per record)."""
    try:
        rs = resolve_ruleset(variant, defaults.rules if variant is None else None, defaults.overrides)
    except MjcalcError:
        return False
    return kernel_compiled(rs.scorer)


class Defaults(NamedTuple):
    """`mjcalc batch --rules FILE --set KEY=VALUE`: the ruleset of records without a `variant`,
    and overrides for every record's ruleset."""

    rules: str | None = None
    overrides: tuple[str, ...] = ()
    extra_fields: str = "error"  # keep: a key that is not a field is echoed under "extra", not an unknown_field row
    extra_columns: tuple[str, ...] | None = None  # keep, CSV output: the input CSV's other columns (None: one `extra` column)

    @property
    def plain(self) -> bool:
        """No --rules and no --set: every record scores as `score` would."""
        return self.rules is None and not self.overrides


_defaults = Defaults()
_keep = False


def configure(defaults: Defaults) -> None:
    """Set the batch-wide `--rules`/`--set` (in the parent before workers start, and in each worker)."""
    global _defaults, _keep
    _keep = defaults.extra_fields == "keep"
    if defaults != _defaults:
        _defaults = defaults
        _outcome.cache_clear()
        _compiled.cache_clear()
        _refusal.cache_clear()
        _answers.clear()
        _answered_errors.clear()
        _lean_rulesets.clear()


def current_defaults() -> Defaults:
    return _defaults


_lean_rulesets: Final[dict[str | None, Ruleset[Any, Any, Any] | None]] = {}  # variant -> its ruleset under the batch's --set


def _lean_ruleset(variant: str | None, defaults: Defaults) -> Ruleset[Any, Any, Any] | None:
    """The ruleset the lean path scores a record of `variant` under: shipped rulesets only (a
    --rules file is read by the full path), found once per variant; None: the full path answers."""
    if variant in _lean_rulesets:
        return _lean_rulesets[variant]
    rs: Ruleset[Any, Any, Any] | None = None
    if variant is not None or defaults.rules is None:
        try:
            rs = resolve_ruleset(variant, None, defaults.overrides)
        except MjcalcError:
            rs = None
    _lean_rulesets[variant] = rs
    return rs


def outcome(key: Key) -> Outcome:
    """Score a normalized record, in the language chosen now (its messages and details are worded
    in it); memoised, since batches repeat hands. Never raises."""
    return _outcome(key, language())


def clear_outcomes() -> None:
    """Forget every memoised outcome."""
    _outcome.cache_clear()


def outcome_cache_info() -> Any:
    """The memo's `functools` cache info (hits, misses, currsize)."""
    return _outcome.cache_info()


def fresh_outcome(key: Key) -> Outcome:
    """`outcome(key)` worked out again, neither read from the memo nor kept in it."""
    return _outcome.__wrapped__(key, language())


@lru_cache(maxsize=CACHE_SIZE)
def _outcome(key: Key, lang: str | None) -> Outcome:
    """`outcome(key)` worded in `lang`, the language chosen when it is called (the texts inside read
    it themselves: `lang` is here to key the memo).

    The lean path (api/row.py) answers the records it covers, byte for byte as the full path
    would; every other record, and every error, takes the full path (score_hand).
    Under `--rules`/`--set`: the record's own variant, else the rules file; overrides for all.
    """
    defaults = _defaults
    variant = key[0]
    rs = _lean_ruleset(variant, defaults)
    if rs is not None:
        try:
            row = score_row(key, rs)
        except Exception:  # the full path answers, and words any failure
            row = None
        if type(row) is tuple:
            # tuple.__new__ with every field: a NamedTuple's own __new__ is Python code, and this is once a record
            return _new_outcome(Outcome, (WIN, row[0], row[1], row[2], row[3], row[4], row[5], "", "", _compiled(variant, defaults), "", None))
        if isinstance(row, MjcalcError):
            return _answered(row, variant)
    return full_outcome(key)


def _answered(err: MjcalcError, variant: str | None) -> Outcome:
    """The row of what a variant's row scorer answered without raising it: a refusal (NotAWin), or
    its own check, as score_hand raises it in field words. Where nothing but its class, code and
    message can shape the row (no position, context or rewrite), it is made once per distinct
    message (and language), without rendering it again: a message by its msgid and parameters,
    each with its type (0 and False are equal, but are written apart)."""
    lang = language()
    seen = _answered_errors.get(id(err))
    if seen is not None and seen[0] is err and seen[1] == variant and seen[2] == lang:
        return seen[3]
    if err.position is None and err.source is None and err.winner is None and not err.context and not err.rewrites:
        text = err.text
        key = (type(err), err.code, text.msgid, tuple([(name, type(value), value) for name, value in text.params.items()]), variant, lang)
        try:
            known = _answers.get(key)
        except TypeError:  # a parameter that cannot be hashed: worded afresh
            return _answer(err, variant)
        if known is None:
            if len(_answers) >= 1024:
                _answers.clear()
            known = _answers[key] = _answer(err, variant)
        if len(_answered_errors) >= 1024:
            _answered_errors.clear()
        _answered_errors[id(err)] = (err, variant, lang, known)  # the error kept, so that its id is not reused
        return known
    return _answer(err, variant)


def _answer(err: MjcalcError, variant: str | None) -> Outcome:
    if isinstance(err, NotAWin):
        return _refusal(err.code, err.message, variant)
    return error_outcome(err.rewritten(in_field_words), variant or "wuhu315")


_answers: Final[dict[tuple[Any, ...], Outcome]] = {}
# A row scorer's shared refusal (the same instance for the same refusal), found by identity:
# id -> (the error, variant, language, its row)
_answered_errors: Final[dict[int, tuple[MjcalcError, str | None, str | None, Outcome]]] = {}


@lru_cache(maxsize=1024)
def _refusal(code: str, message: str, variant: str | None) -> Outcome:
    """The row of a hand that does not win, as the full path words it: one per distinct refusal."""
    return error_outcome(NotAWin(code, in_field_words(message)), variant or "wuhu315")._replace(compiled=_compiled(variant, _defaults))


def full_outcome(key: Key) -> Outcome:
    """`outcome(key)` by the full path: score_hand's ScoreResult, its JSON. Never raises."""
    defaults = _defaults
    variant = key[0]
    shown = variant or "wuhu315"
    try:
        kwargs = score_kwargs(key)
        if not defaults.plain:
            if variant is None and defaults.rules is not None:
                kwargs["rules"] = defaults.rules
                shown = resolve_ruleset(None, defaults.rules, defaults.overrides).name
            result = score_hand(**kwargs, overrides=defaults.overrides)
        else:
            result = score_hand(**kwargs)
        return _win_outcome(result, _compiled(variant, defaults))
    except NotAWin as err:  # the kernel answered this one too
        return error_outcome(err, shown)._replace(compiled=_compiled(variant, defaults))
    except MjcalcError as err:
        return error_outcome(err, shown)
    except Exception as exc:
        return error_outcome(internal_error(exc), shown)


@derived
def _text_fields() -> tuple[itemgetter[Any], itemgetter[Any]]:
    """What takes a record key's strings, and its lists of strings (0: a tuple, even of one)."""
    kinds = record_kinds()
    names = key_fields()
    return (itemgetter(*[i for i, name in enumerate(names) if kinds[name] == "str"], 0),
            itemgetter(*[i for i, name in enumerate(names) if kinds[name] == "list"], 0))


def key_text(key: Key) -> int:
    """Characters of text a normalized record holds (its strings and lists of strings)."""
    take_texts, take_lists = _text_fields()
    texts, lists = take_texts(key), take_lists(key)
    return sum(map(len, filter(None, texts[:-1]))) + sum(map(len, chain.from_iterable(filter(None, lists[:-1]))))


def scored(key: Key, text: int) -> Outcome:
    """`outcome(key)`, through the cache only for a record of at most CACHED_TEXT characters
    (`text`), so that large records never pile up in it."""
    return _outcome(key, language()) if text <= CACHED_TEXT else fresh_outcome(key)


# The C scanner json.loads and raw_decode call (an attribute a JSONDecoder sets on itself), called
# directly: raw_decode is a Python frame around it, a third of what a short record's parse costs.
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = vars(json.JSONDecoder())["scan_once"]


def loads(payload: bytes) -> Any:
    """Parse one JSON record; bad input is an InputError (never another exception).

    The usual line (UTF-8, one value, nothing around it) takes a shortcut; anything
    else goes to json.loads itself, so that errors read exactly as it words them.
    """
    if len(payload) > RECORD_LIMIT:
        raise InputError("record_too_large", "the record is longer than {record_limit:,} bytes", record_limit=RECORD_LIMIT)
    try:
        try:
            text = payload.decode("utf-8")
            value, end = _SCAN(text, 0)
        except (ValueError, StopIteration):  # UnicodeDecodeError is a ValueError; StopIteration: no value at 0
            return json.loads(payload)
        if end != len(text) and text[end:].strip(" \t\r\n"):
            return json.loads(payload)
        return value
    except UnicodeDecodeError:
        raise InputError("bad_encoding", "the line is not valid UTF-8") from None
    except json.JSONDecodeError as exc:
        raise InputError("bad_json", "not valid JSON: {msg} (column {colno})", msg=exc.msg, colno=exc.colno) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise InputError("bad_json", "not valid JSON: {exc}", exc=_short(str(exc))) from None
    except RecursionError:
        raise InputError("bad_json", "not valid JSON: nested too deeply") from None


def _echo_variant(raw: Any) -> str | None:
    variant = raw.get("variant") if isinstance(raw, Mapping) else None
    return variant if isinstance(variant, str) and variant else None


def split_extra(raw: Any) -> tuple[Any, dict[str, Any] | None]:
    """A mapping's keys that are not record fields, taken out (--extra-fields keep)."""
    if not isinstance(raw, Mapping):
        return raw, None
    extra = {k: v for k, v in raw.items() if not (isinstance(k, str) and k in record_kinds())}
    if not extra:
        return raw, None
    return {k: v for k, v in raw.items() if k not in extra}, extra


def evaluate(item: RawRecord) -> tuple[int, RecordId, Outcome]:
    """One item's (line, id, outcome). Never raises."""
    if not _keep:
        return _evaluate(item)
    line, kind, payload = item
    extra = None
    if kind in (CSV, OBJ):
        payload, extra = split_extra(payload)
    elif kind == JSON:
        try:
            payload, extra = split_extra(loads(payload))
            kind = OBJ
        except MjcalcError:
            pass  # the row says why
    line, rid, out = _evaluate((line, kind, payload))
    return line, rid, out if extra is None else out._replace(extra=extra)


def _evaluate(item: RawRecord) -> tuple[int, RecordId, Outcome]:
    line, kind, payload = item
    raw: Any = None
    try:
        if kind == JSON:
            raw = loads(payload)
            key, rid = normalize(raw)
            text = len(payload)  # at least the characters of its text, and cheaper to tell
        elif kind == CSV:
            raw = payload
            key, rid = normalize_csv(payload)
            text = key_text(key)
        elif kind == OBJ:
            raw = payload
            key, rid = normalize(payload)
            text = key_text(key)
        else:
            raise InputError(*payload)
    except MjcalcError as err:
        return line, echo_id(raw), error_outcome(err, _safe_variant(raw))
    except Exception as exc:
        return line, echo_id(raw), error_outcome(internal_error(exc), _safe_variant(raw))
    if type(rid) is str and not rid.isascii() and not is_text(rid):
        return line, None, error_outcome(BAD_ID)
    return line, rid, scored(key, text)


BAD_ID: Final = InputError("bad_field", "field 'id' is not valid Unicode text (it holds a lone surrogate such as \\udcff)")


def check_id(rid: RecordId) -> None:
    """Raise the error of an `id` that cannot be echoed back as text."""
    if type(rid) is str and not rid.isascii() and not is_text(rid):
        raise BAD_ID


def echo_id(raw: Any) -> RecordId:
    """The id to echo on a bad record's row: None where it cannot be written back."""
    try:
        rid = record_id(raw)
    except Exception:
        return None
    if isinstance(rid, int) and rid.bit_length() > 4000:  # could not be printed in decimal
        return None
    if isinstance(rid, str) and (len(rid) > MESSAGE_LIMIT * 4 or not is_text(rid)):
        return None
    return rid


def _safe_variant(raw: Any) -> str | None:
    try:
        variant = _echo_variant(raw)
    except Exception:
        return None
    return variant if variant is None or len(variant) <= MESSAGE_LIMIT else None


def outcomes(items: list[RawRecord]) -> Iterator[tuple[int, RecordId, Outcome]]:
    """Each record's (line, id, outcome), a block of JSON Lines giving one per non-blank line."""
    one = evaluate if _keep else _evaluate  # without --extra-fields keep, no step between a record and its outcome
    for item in items:
        if item[1] != LINES:
            yield one(item)
            continue
        first = item[0]
        for offset, raw in enumerate(item[2].split(b"\n")):
            if raw and not raw.isspace():
                yield one((first + offset, JSON, raw))
