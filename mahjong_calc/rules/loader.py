"""Load rulesets from YAML and validate them once, strictly, into frozen typed objects.

A ruleset's `scorer:` names its `Variant` (registry.py), whose dataclasses are the
schema of its `numbers`, `options` and `patterns` (schema.py reads their type hints).
Every error names the file (or `--set`) and the dotted key. Hostile files are
refused with a one-line `ruleset_invalid`/`ruleset_not_found`, never followed into
devices or FIFOs, never read past `MAX_FILE` bytes: duplicate keys (plain
`yaml.safe_load` keeps the last one silently), YAML anchors and aliases (an alias
bomb expands to gigabytes), text that is not UTF-8, numbers out of range.
"""

from __future__ import annotations

import copy
import errno
import os
import sys
from collections.abc import Container, Mapping, Sequence
from dataclasses import fields
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.errors import InputError, RulesetError, shown
from ..core.words import N_
from ..core.yaml_events import refuse_unreadable_scalars
from . import cache as ruleset_cache
from .cache import read_limited
from .registry import VARIANTS
from .ruleset import N, O, P, Ruleset, Variant
from .schema import convert, frozen, hints, optional_fields, unaliased

if TYPE_CHECKING:
    import yaml

MAX_FILE = 1 << 20  # bytes in one ruleset file: far above any real one, far below trouble
MAX_EXTENDS = 8


@cache
def document_schema(variant: Variant[Any, Any, Any]) -> dict[str, Any]:
    """The top-level keys of a ruleset of `variant`, and their types (Ruleset's YAML fields)."""
    sub = {N: variant.numbers, O: variant.options, P: variant.pattern}
    out: dict[str, Any] = {}
    for f in fields(Ruleset):
        if f.metadata.get("loaded"):
            continue
        hint = hints(Ruleset)[f.name]
        if f.name == "settlement":  # typed by the variant, required where it has one
            if variant.settlement is None:
                continue
            hint = variant.settlement
        if isinstance(hint, TypeVar):
            hint = sub[hint]
        elif getattr(hint, "__parameters__", ()):
            hint = hint[tuple(sub[p] for p in hint.__parameters__)]
        out[f.name] = hint
    return out


def _variant(doc: Mapping[str, Any], source: str) -> Variant[Any, Any, Any]:
    scorer = doc.get("scorer")
    if scorer is None:
        raise RulesetError("ruleset_invalid", "{file}: scorer: missing key", file=source)
    variant = VARIANTS.get(scorer) if isinstance(scorer, str) else None
    if variant is None:
        raise RulesetError("ruleset_invalid", "{file}: scorer: {value} is not one of {choices}", file=source, value=shown(scorer),
                           choices=", ".join(sorted(VARIANTS)))
    return variant


def _check(doc: Mapping[str, Any], variant: Variant[Any, Any, Any], source: str, partial: bool) -> dict[str, Any] | None:
    """Every top-level key checked (and, unless `partial`, built) against `variant`'s schema."""
    schema = document_schema(variant)
    for key in doc:
        if key not in schema:
            raise RulesetError("ruleset_invalid", "{file}: {key}: unknown key", file=source, key=_key_text(key))
    built: dict[str, Any] = {}
    for key, hint in schema.items():
        if key in doc:
            built[key] = convert(doc[key], hint, key, source, partial)
        elif not partial and (key not in optional_fields(Ruleset) or key == "settlement"):
            raise RulesetError("ruleset_invalid", "{file}: {key}: missing key", file=source, key=key)
    if partial:
        return None
    for key in built["patterns"]:
        if key not in variant.detectors:
            raise RulesetError(
                "ruleset_invalid",
                "{file}: patterns.{key}: no such pattern in the {variant} variant (it knows {known})",
                file=source, key=key, variant=variant.name, known=", ".join(sorted(variant.detectors)),
            )
    return built


def build(doc: Mapping[str, Any], source: str) -> Ruleset[Any, Any, Any]:
    """A frozen Ruleset from a merged, plain ruleset document; RulesetError names `source` and the key."""
    variant = _variant(doc, source)
    built = _check(doc, variant, source, partial=False)
    assert built is not None
    detectors = tuple((key, variant.detectors[key]) for key in built["patterns"])
    schema = document_schema(variant)
    shown_doc = {key: unaliased(value, schema[key]) if key in schema else value for key, value in doc.items()}
    return Ruleset(**built, source=source, variant=variant, detectors=detectors, data=frozen(shown_doc))


def _key_text(key: object) -> str:
    return key if isinstance(key, str) and key.isprintable() and len(key) <= 80 else shown(key)


def _printable(text: str, limit: int = 300) -> str:
    """`text` for a message: as it is, unless it holds control characters, surrogates or is long."""
    if not text.isprintable() or len(text) > limit:
        return shown(text, limit)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return shown(text, limit)
    return text


# --- reading YAML safely ------------------------------------------------------


@cache
def strict_loader(what: str = "a ruleset") -> type:
    """SafeLoader (libyaml's C loader where present) that refuses duplicate keys and aliases.

    `what` names the document in the message about aliases ("a ruleset", "a game file").

    Built on first use: `import yaml` costs ~20 ms, which `mjcalc score` skips when
    its rulesets come from the cache (see `cache.py`).
    """
    import yaml

    base: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader is several times faster

    class _StrictLoader(base):  # type: ignore[misc]
        """SafeLoader that refuses duplicate mapping keys and anchors/aliases."""

        def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
            # a node met twice is an alias (or a recursive one): refused, so nothing can expand
            # a small file into gigabytes ("billion laughs")
            if node in self.constructed_objects or node in self.recursive_objects:
                raise RulesetError(
                    "ruleset_invalid",
                    "anchors and aliases (&name, *name) are not allowed in {what} (the value at line {line} is used again)",
                    what=N_(what), line=node.start_mark.line + 1,
                )
            return super().construct_object(node, deep)

    _StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    refuse_unreadable_scalars(_StrictLoader)
    return _StrictLoader


def check_key(key: Any, key_node: yaml.Node, seen: Container[Any]) -> None:
    """Refuse a mapping key that cannot be a name or is already in `seen` (plain YAML keeps the
    last of two duplicates without a word)."""
    try:
        duplicate = key in seen
    except TypeError:  # an unhashable key, such as a list
        raise RulesetError("ruleset_invalid", "a mapping key must be a name, not {key} (line {line})", key=shown(key),
                           line=key_node.start_mark.line + 1) from None
    if duplicate:
        raise RulesetError("ruleset_duplicate_key", "duplicate key {key} at line {line}", key=shown(key), line=key_node.start_mark.line + 1)


def construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        check_key(key, key_node, out)
        out[key] = loader.construct_object(value_node, deep=deep)
    return out


def parse_yaml(text: str, source: str) -> Any:
    """YAML text to plain data with the strict loader; every failure is a RulesetError naming `source`."""
    import yaml

    try:
        return yaml.load(text, Loader=strict_loader())
    except RulesetError as exc:
        raise exc.within(N_("{file}", file=source), RulesetError) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = N_(" at line {line}", line=mark.line + 1) if mark is not None else ""
        raise RulesetError("ruleset_invalid", "{file}: not valid YAML{at}", file=source, at=at) from None
    except RecursionError:
        raise RulesetError("ruleset_invalid", "{file}: nested too deeply", file=source) from None
    except ValueError as exc:  # int() of a 5,000-digit number, a date that does not exist, ...
        problem = N_("an integer has too many digits") if "digits" in str(exc) else N_("a value cannot be read ({reason})", reason=shown(str(exc)))
        raise RulesetError("ruleset_invalid", "{file}: {problem}", file=source, problem=problem) from None


def _read_text(path: Path, source: str) -> str:
    try:
        raw = read_limited(path, MAX_FILE)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        code = "ruleset_invalid" if isinstance(exc, OSError) and exc.errno in (errno.EINVAL, errno.EFBIG) else "ruleset_not_found"
        raise RulesetError(code, "{file}: cannot read ruleset ({reason})", file=source, reason=reason) from None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw:
        raise RulesetError("ruleset_invalid", "{file}: the file is UTF-16 or UTF-32 (or holds NUL bytes); save it as UTF-8", file=source)
    try:
        return raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError("ruleset_invalid", "{file}: not UTF-8 text (byte {byte:#04x} at offset {offset}); save it as UTF-8",
                           file=source, byte=raw[exc.start], offset=exc.start) from None


def _read_yaml(path: Path, source: str) -> dict[str, Any]:
    data = parse_yaml(_read_text(path, source), source)
    if not isinstance(data, dict):
        raise RulesetError("ruleset_invalid", "{file}: a ruleset must be a mapping", file=source)
    return data


# --- extends and --set ----------------------------------------------------------


def rulesets_dir() -> Path:
    """Shipped rulesets: inside the installed package, or at the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "rulesets"
    return packaged if packaged.is_dir() else package.parent / "rulesets"


def shipped_names() -> list[str]:
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def _merge(base: dict[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _raw(path: Path, source: str, depth: int = 0, files: list[Path] | None = None) -> dict[str, Any]:
    """The YAML of `path` with its `extends:` chain merged in, not yet built; `files` collects what was read."""
    data = _read_yaml(path, source)
    if files is not None:
        files.append(path)
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str) or parent not in shipped_names():
        raise RulesetError(
            "ruleset_invalid", "{file}: extends: {value} is not a shipped ruleset ({choices})", file=source, value=shown(parent),
            choices=", ".join(shipped_names()),
        )
    if depth > MAX_EXTENDS:
        raise RulesetError("ruleset_invalid", "{file}: extends: chain is too deep", file=source)
    base = _raw(rulesets_dir() / f"{parent}.yaml", f"{parent}.yaml", depth + 1, files)
    # the overlay alone first, so its errors name its own keys before the merge hides them
    _check(data, _variant({**base, **data}, source), source, partial=True)
    return _merge(base, data)


def _parse_override(item: str) -> tuple[list[str], Any]:
    key, sep, text = item.partition("=")
    if not sep or not key.strip():
        raise RulesetError("bad_set_option", "--set {item}: expected KEY=VALUE, such as options.ya_dang_edge_wait=true", item=_printable(item, 80))
    try:
        item.encode("utf-8")
    except UnicodeEncodeError:
        raise RulesetError("bad_set_option", "--set {item}: not UTF-8 text", item=_printable(item, 80)) from None
    if not text.strip():
        return key.strip().split("."), ""
    try:
        value = parse_yaml(text, "--set")
    except RulesetError as exc:
        if exc.code == "ruleset_duplicate_key" or "aliases" in exc.text.msgid:
            raise
        value = text  # not YAML: the text itself, which the schema then judges
    return key.strip().split("."), value


def _apply_override(data: dict[str, Any], path: list[str], value: Any) -> None:
    node: Any = data
    for part in path[:-1]:
        if not isinstance(node, dict) or part not in node:
            raise _unknown_key(data, path)
        node = node[part]
    if not isinstance(node, dict) or path[-1] not in node:
        raise _unknown_key(data, path)
    node[path[-1]] = value


def keys_of(data: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Every value `--set` can change in a ruleset document, by its dotted key (`options.ya_dang_edge_wait`), in order."""
    out: list[str] = []
    for key, value in data.items():
        if not isinstance(key, str) or key == "extends":
            continue
        if isinstance(value, Mapping):
            out += keys_of(value, f"{prefix}{key}.")
        else:
            out.append(prefix + key)
    return out


def _unknown_key(data: Mapping[str, Any], path: list[str]) -> RulesetError:
    """`--set` names a key the ruleset has not: the closest keys it has, if any are close."""
    from difflib import get_close_matches

    key = ".".join(path)
    like = get_close_matches(key, keys_of(data), n=3, cutoff=0.6)
    if not like:
        return RulesetError("ruleset_invalid", "--set: {key}: unknown key (`mjcalc options` lists them)", key=_printable(key, 80))
    return RulesetError("ruleset_invalid", "--set: {key}: unknown key; did you mean {like}?", key=_printable(key, 80),
                        like=" or ".join(f"`{k}`" for k in like))


# --- loading, memoised ----------------------------------------------------------


def _schema_files(variant: Variant[Any, Any, Any]) -> list[Path]:
    """The code a cached document was validated by: a change to it makes an entry stale too."""
    modules = {__name__, "mahjong_calc.rules.ruleset", "mahjong_calc.rules.schema", "mahjong_calc.rules.registry", variant.numbers.__module__}
    return [Path(__file__).resolve()] + [Path(file) for m in sorted(modules - {__name__}) if (file := getattr(sys.modules.get(m), "__file__", None))]


def _document(path: str, source: str, shipped: bool) -> tuple[dict[str, Any], Ruleset[Any, Any, Any]]:
    """The merged plain document of `path` and the Ruleset built from it, from the disk cache when it holds up."""
    if shipped:
        doc = ruleset_cache.get(path)
        if doc is not None:
            try:
                return doc, build(doc, source)  # the entry is checked by the same schema as the YAML
            except RulesetError:
                pass  # valid JSON with the right digest but not a valid ruleset: ignore the entry
    files: list[Path] = []
    doc = _raw(Path(path), source, files=files)
    rs = build(doc, source)
    if shipped:
        ruleset_cache.put(path, files + _schema_files(rs.variant), doc)
    return doc, rs


@lru_cache(maxsize=64)
def _load_cached(path: str, source: str, overrides: tuple[str, ...]) -> Ruleset[Any, Any, Any]:
    # only shipped rulesets go to the disk cache: user files come and go (temporary
    # directories, tests) and would leave entries behind
    shipped = Path(path).parent == rulesets_dir()
    doc, rs = _document(path, source, shipped)
    if not overrides:
        return rs
    doc = copy.deepcopy(doc)
    for item in overrides:
        keys, value = _parse_override(item)
        _apply_override(doc, keys, value)
    return build(doc, "--set")


def load_ruleset(variant: str | None = None, rules_file: str | Path | None = None, overrides: Sequence[str] = ()) -> Ruleset[Any, Any, Any]:
    """A shipped ruleset by name, or a user's file (which may `extends:` a shipped one)."""
    if rules_file is not None:
        source = _printable(str(rules_file))
        try:
            # realpath, not Path.resolve(): a symlink loop must reach open() and its ELOOP
            path = os.path.realpath(rules_file)
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            raise RulesetError("ruleset_not_found", "{file}: cannot read ruleset ({reason})", file=source, reason=str(exc)) from None
        return _load_cached(path, source, tuple(overrides))
    return _load_shipped(variant or "wuhu315", tuple(overrides))


@lru_cache(maxsize=64)
def _load_shipped(name: str, overrides: tuple[str, ...]) -> Ruleset[Any, Any, Any]:
    """A shipped ruleset by name, memoised on the name so a batch never touches the file system again."""
    names = shipped_names()
    if name not in names:
        raise InputError("unknown_variant", "unknown variant {name}; choose one of {choices}", name=shown(name), choices=", ".join(names))
    return _load_cached(str(rulesets_dir() / f"{name}.yaml"), f"{name}.yaml", overrides)
