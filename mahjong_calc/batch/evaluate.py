"""One record to one outcome: parse, check, score (cached), never raise.

Everything that can go wrong with one record becomes that record's outcome: bad
input is an `error` with its code, a hand that is not a win is a `not_a_win`
with its reason, and anything unforeseen (a bug, a number too large to print, a
nesting too deep) is an `error` with code `internal_error`, so the run goes on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from itertools import chain
from operator import itemgetter
from typing import Any, Final, NamedTuple, final

from ..api.session import FLAG_NAMES, Session, resolve_ruleset, worded
from ..compiled import kernel_compiled
from ..core.batch_record import Key, RecordId, is_text, normalize, normalize_csv, record_id, record_kinds
from ..core.errors import InputError, MjcalcError, NotAWin
from ..core.flags import key_fields
from ..core.language import language
from ..core.memo import Memo
from ..core.result import ScoreResult
from ..present.errors import error_dict, error_where
from ..rules.ruleset import Ruleset
from .items import CSV, JSON, LINES, OBJ, RECORD_LIMIT, RawRecord

WIN: Final = "win"
NOT_A_WIN: Final = "not_a_win"
ERROR: Final = "error"
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
    message = err.message
    if len(message) > MESSAGE_LIMIT * 4:  # never echo a huge value back
        err = type(err)(err.code, _short(message))
        message = err.message
    return Outcome(status, _dumps(error_dict(err)), variant, code=err.code, message=message, where=error_where(err))


def _error_row(err: MjcalcError, variant: str | None, compiled: bool = False, spelled: bool = True) -> Outcome:
    """`error_outcome` of what a record raised (`spelled`: as the library raised it; else as
    `Session.judge_under` returned it, its flags then named as a record's fields), made once per
    distinct message where nothing but the error's class, code and message shape its row
    (`MjcalcError.signature`)."""
    signature = err.signature()
    if signature is None:
        return error_outcome(err if spelled else worded(err, "field"), variant)._replace(compiled=compiled)
    key = (signature, spelled, variant, compiled, language())
    made: Outcome | None = _errors.get(key)
    if made is None:
        made = _errors.keep(key, error_outcome(err if spelled else worded(err, "field"), variant)._replace(compiled=compiled))
    return made


def _win_outcome(result: ScoreResult, compiled: bool) -> Outcome:
    body = result.json_bytes()[1:]
    a, b, c = result.pays
    # tuple.__new__ with every field: a NamedTuple's own __new__ is Python code, and this is once a record
    return _new_outcome(Outcome, (WIN, body, result.variant, result.value, a + b + c, result.pays, result.patterns, "", "", compiled, "", None))


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
_session = Session()  # the run's caches: made afresh when --rules or --set change
_rows = Memo()  # its records' outcomes, likewise
_errors = Memo()  # its error rows, each made once per distinct message, likewise


def configure(defaults: Defaults) -> None:
    """Set the batch-wide `--rules`/`--set` (in the parent before workers start, and in each worker)."""
    global _defaults, _keep, _session, _rows, _errors
    _keep = defaults.extra_fields == "keep"
    if defaults != _defaults:
        _defaults = defaults
        _session, _rows, _errors = Session(), Memo(), Memo()


def current_defaults() -> Defaults:
    return _defaults


class MemoInfo(NamedTuple):
    """How the memo of outcomes has served: answers found in it, answers worked out, entries held."""

    hits: int
    misses: int
    currsize: int


_asked = [0, 0]  # outcomes found in the memo, and worked out


def outcome(key: Key) -> Outcome:
    """Score a normalized record, in the language chosen now (its messages and details are worded
    in it); memoised, since batches repeat hands. Never raises."""
    memo_key = (key, language())
    made: Outcome | None = _rows.get(memo_key)
    if made is None:
        _asked[1] += 1
        return _rows.keep(memo_key, fresh_outcome(key))  # type: ignore[no-any-return]
    _asked[0] += 1
    return made


def clear_outcomes() -> None:
    """Forget every memoised outcome."""
    _rows.clear()


def outcome_cache_info() -> MemoInfo:
    """How the memo of outcomes has served (as functools' cache_info)."""
    return MemoInfo(_asked[0], _asked[1], len(_rows))


@final
class Scorer:
    """The ruleset a record of one `variant` scores under, and whether its kernel runs compiled."""

    def __init__(self, rs: Ruleset[Any, Any, Any], compiled: bool) -> None:
        self.rs = rs
        self.compiled = compiled


def _scorer(variant: str | None) -> Scorer:
    """The ruleset a record of `variant` scores under (the batch's --rules without one; its --set for
    all), and whether its kernel is compiled: found once per variant (raises what resolving raises)."""
    made: Scorer | None = _session.kept.get(variant)
    if made is None:
        rs = resolve_ruleset(variant, _defaults.rules if variant is None else None, _defaults.overrides)
        made = _session.kept.keep(variant, Scorer(rs, kernel_compiled(rs.scorer)))
    return made


_KEY: Final = {name: i for i, name in enumerate(key_fields())}
_HAND: Final = _KEY["hand"]
_WIN: Final = _KEY["win"]
_MELDS: Final = _KEY["melds"]
_KONGS: Final = _KEY["concealed_kongs"]
_FLAG_AT: Final[tuple[int, ...]] = tuple([_KEY[name] for name in FLAG_NAMES])  # where a record key holds each win flag


def flags_of(key: Key) -> tuple[Any, ...]:
    """A record key's win flags, in FLAG_NAMES' order."""
    return tuple([key[i] for i in _FLAG_AT])


def fresh_outcome(key: Key) -> Outcome:
    """`outcome(key)` worked out, neither read from the memo nor kept in it: the record scored on the
    one path (api/session.py) under the batch's `--rules`/`--set` (the record's own variant, else the
    rules file; overrides for all). Never raises."""
    variant = key[0]
    shown = variant or "wuhu315"
    try:
        scorer = _scorer(variant)
        rs = scorer.rs
        if variant is None:
            shown = rs.name
        made = _session.judge_under(rs, key[_HAND], key[_WIN], key[_MELDS], key[_KONGS], flags_of(key))
        if isinstance(made, ScoreResult):
            return _win_outcome(made, scorer.compiled)
        # a hand that does not win: the kernel answered this one too
        return _error_row(made, shown, scorer.compiled if isinstance(made, NotAWin) else False, False)
    except MjcalcError as err:
        return _error_row(err, shown)
    except Exception as exc:
        return error_outcome(internal_error(exc), shown)


full_outcome = fresh_outcome  # there is one path: the name tests and recipes used for it


@cache
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
    """`outcome(key)`, through the memo only for a record of at most CACHED_TEXT characters
    (`text`), so that large records never pile up in it."""
    return outcome(key) if text <= CACHED_TEXT else fresh_outcome(key)


_DECODE: Final = json.JSONDecoder().raw_decode  # one value from the start of a text, and where it ends


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
            value, end = _DECODE(text)
        except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
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
    keep = _keep  # without --extra-fields keep, no step between a record and its outcome
    for item in items:
        if item[1] != LINES:
            yield evaluate(item) if keep else _evaluate(item)
            continue
        first = item[0]
        for offset, raw in enumerate(item[2].split(b"\n")):
            if raw and not raw.isspace():
                yield evaluate((first + offset, JSON, raw)) if keep else _evaluate((first + offset, JSON, raw))
