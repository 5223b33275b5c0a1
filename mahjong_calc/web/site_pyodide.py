"""What of Pyodide a site ships: the parts the page uses, made lighter (`mjcalc site build`).

A first visit fetches every file once, and a host that does not gzip sends them as they are,
so the site keeps only what the page runs (bench/RESULTS.md has the figures):

* `pyodide.asm.wasm.gz`: the WebAssembly, gzipped here (9.6 MB -> 3.5 MB); the engine's worker
  (static/worker.js) gives it to Pyodide unpacked, with the browser's own DecompressionStream.
* `python_stdlib.zip`: the standard library the page can import: every module that an import
  statement anywhere in Pyodide's own packages, `site`, the codecs below or this package's shipped
  modules reaches, followed through the standard library's own imports (those inside functions
  too, so that a lazy import on a path no test takes still finds its module; `if __name__ ==
  "__main__":` and `if TYPE_CHECKING:` blocks left out): 2.5 MB -> 1.6 MB. A module that only a
  computed name imports (the codecs' search) is named in CODECS.
* `pyodide-lock.json`: Pyodide's own `info`, and no packages: the page loads none (119 kB -> 0.3 kB).
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

WASM = "pyodide.asm.wasm"
WASM_GZ = WASM + ".gz"
# the codecs a page may look up by name (`str.encode("unicode_escape")`, zip names in cp437): found by name, not by import
CODECS = ("aliases", "ascii", "latin_1", "cp437", "utf_8", "utf_8_sig", "utf_16", "utf_16_le", "utf_16_be", "utf_32",
          "utf_32_le", "utf_32_be", "unicode_escape", "raw_unicode_escape")
ROOTS = ("site", *(f"encodings.{c}" for c in CODECS))
OWN = ("_pyodide/", "pyodide/")  # Pyodide's own packages, imported by name from JavaScript: kept whole

_IMPORT = re.compile(r"^(\s*)import\s+(.+)$")
_FROM = re.compile(r"^(\s*)from\s+(\.*)([\w.]*)\s+import\s+(.+)$")
_GUARD = re.compile(r"^(\s*)if\s+(__name__\s*==|(\w+\.)?TYPE_CHECKING\s*:)")
_NAME = re.compile(r"[\w.]+")


def module_name(path: str) -> str | None:
    """`asyncio/events.py` -> `asyncio.events`, `json/__init__.py` -> `json`; None for a file that is not a module."""
    if not path.endswith(".py"):
        return None
    name = path[:-3].replace("/", ".")
    return name.removesuffix(".__init__")


def _lines(text: str) -> Iterator[str]:
    """The lines of `text` that run when it is imported (a `__main__` or TYPE_CHECKING block left out),
    a parenthesised `from ... import (...)` joined into one line."""
    lines = text.splitlines()
    guard: int | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if guard is not None and indent > guard:
            continue
        guard = None
        if (found := _GUARD.match(line)) is not None:
            guard = len(found.group(1))
            continue
        if line.lstrip().startswith("from ") and "(" in line and ")" not in line:
            while i < len(lines) and ")" not in line:
                line += " " + lines[i].split("#")[0]
                i += 1
        yield line


def imports(text: str, module: str, package: bool) -> set[str]:
    """Every module an import statement of `text` names (at any depth), relative ones resolved; for
    `from a import b`, `a` and `a.b` (b may be a submodule). Read line by line, not parsed, so that a
    newer Python's syntax in the standard library does not stop the build."""
    out: set[str] = set()
    for line in _lines(text):
        if (found := _IMPORT.match(line)) is not None:
            for part in found.group(2).split("#")[0].split(","):
                name = part.strip().split(" as ")[0].strip()
                if _NAME.fullmatch(name):
                    out.add(name)
        elif (found := _FROM.match(line)) is not None:
            dots, base, names = found.group(2), found.group(3), found.group(4).split("#")[0]
            if dots:
                parts = module.split(".") if package else module.split(".")[:-1]
                base = ".".join([*parts[: len(parts) - (len(dots) - 1)], *([base] if base else [])])
            out.add(base)
            for part in names.replace("(", " ").replace(")", " ").split(","):
                name = part.strip().split(" as ")[0].strip()
                if _NAME.fullmatch(name):
                    out.add(f"{base}.{name}")
    return out


def kept_modules(stdlib: zipfile.ZipFile, sources: Iterable[tuple[str, str, bool]]) -> set[str]:
    """The modules of `stdlib` that ROOTS, Pyodide's own packages and `sources` ((text, module, is a package),
    this package's shipped modules) reach by import, followed through the standard library's own imports."""
    files = {name: path for path in stdlib.namelist() if (name := module_name(path)) is not None}
    kept: set[str] = set()
    todo: list[str] = []

    def reach(name: str) -> None:
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # a module's packages are imported first
            step = ".".join(parts[:k])
            if step in files and step not in kept:
                kept.add(step)
                todo.append(step)

    for name in (*ROOTS, *(name for name, path in files.items() if path.startswith(OWN))):
        reach(name)
    for text, module, package in sources:
        for name in imports(text, module, package):
            reach(name)
    while todo:
        name = todo.pop()
        path = files[name]
        for found in imports(stdlib.read(path).decode("utf-8", "replace"), name, path.endswith("__init__.py")):
            reach(found)
    return kept


def _sources(package_zip: bytes) -> Iterator[tuple[str, str, bool]]:
    with zipfile.ZipFile(io.BytesIO(package_zip)) as zf:
        for path in zf.namelist():
            if (name := module_name(path)) is not None:
                yield zf.read(path).decode("utf-8"), name, path.endswith("__init__.py")


def trim_stdlib(stdlib_zip: bytes, package_zip: bytes) -> bytes:
    """`python_stdlib.zip` with only the modules the page can reach from `package_zip` (mjcalc.zip);
    the other files of a kept package (its data) stay with it."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(stdlib_zip)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
        kept = kept_modules(src, _sources(package_zip))
        for info in src.infolist():
            if info.is_dir():
                continue
            name = module_name(info.filename)
            folder = info.filename.rpartition("/")[0].replace("/", ".")
            if (name in kept) if name is not None else folder in kept:
                entry = zipfile.ZipInfo(info.filename, date_time=(2020, 1, 1, 0, 0, 0))
                entry.compress_type = zipfile.ZIP_DEFLATED
                dst.writestr(entry, src.read(info))
    return out.getvalue()


def slim(folder: Path, package_zip: bytes) -> None:
    """Make the Pyodide files in `folder` (checked by site.fetch_pyodide) the site's: the stdlib trimmed,
    the lock file bare, the wasm gzipped (the same bytes for the same input: no time in the gzip header)."""
    stdlib = folder / "python_stdlib.zip"
    stdlib.write_bytes(trim_stdlib(stdlib.read_bytes(), package_zip))
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    (folder / "pyodide-lock.json").write_text(json.dumps({"info": lock.get("info", {}), "packages": {}}, indent=1), encoding="utf-8")
    wasm = folder / WASM
    (folder / WASM_GZ).write_bytes(gzip.compress(wasm.read_bytes(), 9, mtime=0))
    wasm.unlink()


__all__ = ["CODECS", "WASM", "WASM_GZ", "imports", "kept_modules", "module_name", "slim", "trim_stdlib"]
