"""Load rulesets from YAML and validate them once, strictly.

Every error names the file (or `--set`) and the dotted key. Duplicate keys are
rejected, since plain `yaml.safe_load` silently keeps the last one.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InputError, RulesetError

if TYPE_CHECKING:
    import yaml

@lru_cache(maxsize=None)
def _strict_loader() -> type:
    """SafeLoader (libyaml's C loader where present) that refuses duplicate mapping keys.

    Built on first use: `import yaml` costs ~20 ms, which `mjcalc score` skips when
    its rulesets come from the cache (see `ruleset_cache`).
    """
    import yaml

    base: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader is several times faster

    class _StrictLoader(base):  # type: ignore[misc,valid-type]
        """SafeLoader that refuses duplicate mapping keys."""

    _StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    return _StrictLoader


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise RulesetError(
                "ruleset_duplicate_key", f"duplicate key {key!r} at line {key_node.start_mark.line + 1}"
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


# --- a tiny schema language -------------------------------------------------


@dataclass(frozen=True)
class Opt:
    """An optional key."""

    spec: Any


@dataclass(frozen=True)
class ListOf:
    spec: Any


@dataclass(frozen=True)
class MapOf:
    """A mapping with free snake_case keys, every value matching `spec`."""

    spec: Any


@dataclass(frozen=True)
class Choice:
    values: tuple[Any, ...]

    def __init__(self, *values: Any) -> None:
        object.__setattr__(self, "values", values)


LABEL = {"zh": str, "en": str}


def _type_name(spec: Any) -> str:
    if isinstance(spec, type):
        return {int: "an integer", float: "a number", bool: "true or false", str: "a string"}[spec]
    if isinstance(spec, Choice):
        return "one of " + ", ".join(repr(v) for v in spec.values)
    if isinstance(spec, ListOf):
        return "a list"
    return "a mapping"


def _check(value: Any, spec: Any, where: str, source: str, partial: bool) -> None:
    """Raise RulesetError naming `source` and the dotted key `where` if `value` breaks `spec`."""
    if isinstance(spec, Opt):
        spec = spec.spec

    def fail(problem: str) -> None:
        raise RulesetError("ruleset_invalid", f"{source}: {where or '<top>'}: {problem}")

    if isinstance(spec, type):
        ok = isinstance(value, spec) and not (spec is not bool and isinstance(value, bool))
        if spec is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            fail(f"must be {_type_name(spec)}, got {value!r}")
    elif isinstance(spec, Choice):
        if value not in spec.values:
            fail(f"must be {_type_name(spec)}, got {value!r}")
    elif isinstance(spec, ListOf):
        if not isinstance(value, list):
            fail(f"must be a list, got {value!r}")
        for i, item in enumerate(value):
            _check(item, spec.spec, f"{where}[{i}]", source, partial)
    elif isinstance(spec, MapOf):
        if not isinstance(value, dict):
            fail(f"must be a mapping, got {value!r}")
        for key, item in value.items():
            _check(item, spec.spec, f"{where}.{key}" if where else str(key), source, partial)
    elif isinstance(spec, dict):
        if not isinstance(value, dict):
            fail(f"must be a mapping, got {value!r}")
        for key in value:
            if key not in spec:
                raise RulesetError("ruleset_invalid", f"{source}: {_join(where, key)}: unknown key")
        for key, sub in spec.items():
            if key in value:
                _check(value[key], sub, _join(where, key), source, partial)
            elif not partial and not isinstance(sub, Opt):
                raise RulesetError("ruleset_invalid", f"{source}: {_join(where, key)}: missing key")
    else:  # pragma: no cover - a bug in a schema, not in a ruleset
        raise TypeError(f"bad schema node {spec!r}")


def _join(where: str, key: Any) -> str:
    return f"{where}.{key}" if where else str(key)


def common_schema(pattern_spec: Any, **sections: Any) -> dict[str, Any]:
    """The keys every variant shares, plus the variant's own sections."""
    return {
        "name": str,
        "version": str,
        "scorer": str,
        "title": LABEL,
        "description": Opt(str),
        "tiles": {"suits": ListOf(Choice("m", "p", "s")), "honours": ListOf(int), "chow_melds": bool},
        "labels": MapOf(LABEL),
        "patterns": MapOf(pattern_spec),
        **sections,
    }


# --- the ruleset object -----------------------------------------------------


@dataclass(frozen=True)
class Ruleset:
    """A validated ruleset. `data` follows the scorer's schema."""

    name: str
    version: str
    scorer: str
    source: str
    data: Mapping[str, Any]

    @property
    def options(self) -> Mapping[str, Any]:
        return self.data["options"]

    @property
    def patterns(self) -> Mapping[str, Mapping[str, Any]]:
        return self.data["patterns"]

    def label(self, key: str) -> tuple[str, str]:
        """(zh, en) for a pattern or item key."""
        entry = self.data["patterns"].get(key) or self.data["labels"].get(key)
        if entry is None:
            return key, key
        return entry["zh"], entry["en"]


def rulesets_dir() -> Path:
    """Shipped rulesets: inside the installed package, or at the top of a source checkout."""
    here = Path(__file__).resolve().parent
    packaged = here / "rulesets"
    return packaged if packaged.is_dir() else here.parent / "rulesets"


def shipped_names() -> list[str]:
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def _read_yaml(path: Path, source: str) -> dict[str, Any]:
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesetError("ruleset_not_found", f"{source}: cannot read ruleset ({exc.strerror})") from None
    try:
        data = yaml.load(text, Loader=_strict_loader())  # noqa: S506 - a SafeLoader subclass
    except RulesetError as exc:
        raise RulesetError(exc.code, f"{source}: {exc.message}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise RulesetError("ruleset_invalid", f"{source}: not valid YAML{at}") from None
    if not isinstance(data, dict):
        raise RulesetError("ruleset_invalid", f"{source}: a ruleset must be a mapping")
    return data


def _merge(base: dict[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _raw(path: Path, source: str, depth: int = 0, files: list[Path] | None = None) -> dict[str, Any]:
    """The YAML of `path` with its `extends:` chain merged in, not yet validated; `files` collects what was read."""
    data = _read_yaml(path, source)
    if files is not None:
        files.append(path)
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str) or parent not in shipped_names():
        raise RulesetError(
            "ruleset_invalid", f"{source}: extends: {parent!r} is not a shipped ruleset ({', '.join(shipped_names())})"
        )
    if depth > 8:
        raise RulesetError("ruleset_invalid", f"{source}: extends: chain is too deep")
    base = _raw(rulesets_dir() / f"{parent}.yaml", f"{parent}.yaml", depth + 1, files)
    _validate(data, base.get("scorer"), source, partial=True)
    return _merge(base, data)


def _validate(data: Mapping[str, Any], scorer: Any, source: str, partial: bool = False) -> None:
    from .scoring import schema_for  # scorers import this module

    if not isinstance(scorer, str):
        raise RulesetError("ruleset_invalid", f"{source}: scorer: missing key")
    _check(data, schema_for(scorer, source), "", source, partial)


def _parse_override(item: str) -> tuple[list[str], Any]:
    key, sep, text = item.partition("=")
    if not sep or not key.strip():
        raise RulesetError("bad_set_option", f"--set {item!r}: expected KEY=VALUE, such as options.ya_dang_edge_wait=true")
    import yaml

    try:
        value = yaml.load(text, Loader=_strict_loader()) if text.strip() else ""  # noqa: S506
    except yaml.YAMLError:
        value = text
    return key.strip().split("."), value


def _apply_override(data: dict[str, Any], path: list[str], value: Any, item: str) -> None:
    node: Any = data
    for part in path[:-1]:
        if not isinstance(node, dict) or part not in node:
            raise RulesetError("ruleset_invalid", f"--set: {'.'.join(path)}: unknown key")
        node = node[part]
    if not isinstance(node, dict) or path[-1] not in node:
        raise RulesetError("ruleset_invalid", f"--set: {'.'.join(path)}: unknown key")
    node[path[-1]] = value


@lru_cache(maxsize=64)
def _load_cached(path: str, source: str, overrides: tuple[str, ...]) -> Ruleset:
    from . import ruleset_cache

    # only shipped rulesets go to the disk cache: user files come and go (temporary
    # directories, tests) and would leave entries behind
    shipped = Path(path).parent == rulesets_dir()
    data = ruleset_cache.get(path) if shipped else None
    if data is None:
        files: list[Path] = []
        data = _raw(Path(path), source, files=files)
        _validate(data, data.get("scorer"), source)
        if shipped:
            # the schema lives in code: a changed scorer or loader makes the entry stale too
            from .scoring import SCORERS

            here = Path(__file__).resolve().parent
            files += [here / "ruleset.py", here / "scoring" / f"{SCORERS[data['scorer']]}.py"]
            ruleset_cache.put(path, files, data)
    if overrides:
        for item in overrides:
            keys, value = _parse_override(item)
            _apply_override(data, keys, value, item)
        _validate(data, data["scorer"], "--set")
    return Ruleset(data["name"], data["version"], data["scorer"], source, data)


def load_ruleset(variant: str | None = None, rules_file: str | Path | None = None, overrides: Sequence[str] = ()) -> Ruleset:
    """A shipped ruleset by name, or a user's file (which may `extends:` a shipped one)."""
    if rules_file is not None:
        path = Path(rules_file)
        return _load_cached(str(path.resolve()), str(rules_file), tuple(overrides))
    return _load_shipped(variant or "wuhu315", tuple(overrides))


@lru_cache(maxsize=64)
def _load_shipped(name: str, overrides: tuple[str, ...]) -> Ruleset:
    """A shipped ruleset by name, memoised on the name so a batch never touches the file system again."""
    names = shipped_names()
    if name not in names:
        raise InputError("unknown_variant", f"unknown variant {name!r}; choose one of {', '.join(names)}")
    return _load_cached(str(rulesets_dir() / f"{name}.yaml"), f"{name}.yaml", overrides)
