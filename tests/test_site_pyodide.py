"""What of Pyodide a site keeps (web/site_pyodide.py): the imports of a module read line by line, the
standard library cut to what an import reaches, on a small library and on Pyodide's own (the tarball
MJCALC_PYODIDE names; skipped without it)."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from mahjong_calc.web.site_pyodide import imports, kept_modules, module_name, trim_stdlib


@pytest.mark.parametrize(("text", "module", "package", "found"), [
    ("import os, sys as system\nimport a.b  # c", "m", False, {"os", "sys", "a.b"}),
    ("from . import x\nfrom .y import z\nfrom ..w import (v,\n  u)", "p.q.m", False, {"p.q", "p.q.x", "p.q.y", "p.q.y.z", "p.w", "p.w.v", "p.w.u"}),
    ("from . import x", "p.q", True, {"p.q", "p.q.x"}),
    ("def f():\n    import lazy\n    from deep.er import it", "m", False, {"lazy", "deep.er", "deep.er.it"}),
    ("if __name__ == '__main__':\n    import test_only\nimport after", "m", False, {"after"}),
    ("if TYPE_CHECKING:\n    from typing_only import T\nelse:\n    import runtime", "m", False, {"runtime"}),
    ("class A[T](B):\n    x: int = f'{1:{2}}'\nimport newer", "m", False, {"newer"}),  # a newer Python's syntax: still read
])
def test_the_imports_of_a_module_are_read_line_by_line(text: str, module: str, package: bool, found: set[str]) -> None:
    assert imports(text, module, package) == found


def _zip(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return buf.getvalue()


def test_the_stdlib_keeps_what_an_import_reaches_and_nothing_else(tmp_path: Path) -> None:
    stdlib = _zip({
        "site.py": "import os\n", "os.py": "import stat\n", "stat.py": "", "pyodide/__init__.py": "from .ffi import x\n",
        "pyodide/ffi.py": "", "pyodide/console.py": "import code\n", "code.py": "", "_pyodide/__init__.py": "",
        "encodings/__init__.py": "", "encodings/utf_8.py": "", "encodings/koi8_r.py": "", "json/__init__.py": "from .decoder import d\n",
        "json/decoder.py": "def d():\n    import re\n", "re.py": "", "json/tool.py": "import argparse\n", "argparse.py": "",
        "unittest/__init__.py": "", "unittest/data.txt": "x", "pydoc_data/topics.py": "", "csv.py": "",
    })
    package = _zip({"mahjong_calc/__init__.py": "import json\n", "mahjong_calc/a.py": "def f():\n    import csv\n"})
    with zipfile.ZipFile(io.BytesIO(trim_stdlib(stdlib, package))) as zf:
        kept = set(zf.namelist())
    assert kept == {"site.py", "os.py", "stat.py", "pyodide/__init__.py", "pyodide/ffi.py", "pyodide/console.py", "code.py",
                    "_pyodide/__init__.py", "encodings/__init__.py", "encodings/utf_8.py", "json/__init__.py", "json/decoder.py",
                    "re.py", "csv.py"}


def test_the_real_stdlib_keeps_what_the_page_imports() -> None:
    """Pyodide's own python_stdlib.zip: the modules a full session of the page imported (measured once in
    Chromium, bench/RESULTS.md) are kept, and the biggest packages it never reaches are not."""
    given = os.environ.get("MJCALC_PYODIDE")
    if not given or not Path(given).is_file():
        pytest.skip("MJCALC_PYODIDE is not set to the pyodide@314.0.8 tarball")
    from mahjong_calc.web.site import python_zip

    with tarfile.open(given, "r:gz") as tar:
        member = tar.extractfile("package/python_stdlib.zip")
        assert member is not None
        stdlib = member.read()
    with zipfile.ZipFile(io.BytesIO(stdlib)) as zf, zipfile.ZipFile(io.BytesIO(python_zip())) as package:
        modules = {module_name(n) for n in zf.namelist()} - {None}
        shipped = kept_modules(zf, [(package.read(n).decode(), str(module_name(n)), n.endswith("__init__.py"))
                                    for n in package.namelist() if n.endswith(".py")])
    assert shipped < modules
    assert {m for m in SESSION if m in modules} <= shipped, sorted({m for m in SESSION if m in modules} - shipped)
    for gone in ("unittest", "tkinter", "idlelib", "turtle", "doctest", "venv", "ensurepip", "wsgiref", "curses", "encodings.koi8_r"):
        assert gone not in shipped
    assert len(trim_stdlib(stdlib, python_zip())) < 0.7 * len(stdlib)


# the standard library modules a full session of the page imported in Chromium (score, waits and advise of
# every variant, a game new, add, edit, delete, undo, redo, export and import, errors in both languages)
SESSION = ("asyncio", "base64", "bisect", "bz2", "codecs", "collections", "contextlib", "copy", "csv", "dataclasses", "datetime",
           "decimal", "dis", "encodings.aliases", "encodings.cp437", "encodings.utf_8", "enum", "fnmatch", "gettext", "glob",
           "hashlib", "hmac", "inspect", "json", "keyword", "linecache", "locale", "logging", "lzma", "numbers", "opcode",
           "pathlib", "pyodide.code", "pyodide.ffi", "pyodide.webloop", "_pyodide._importhook", "random", "re", "reprlib",
           "secrets", "selectors", "shutil", "signal", "site", "socket", "sqlite3", "sqlite3.dbapi2", "ssl", "string", "struct",
           "subprocess", "tempfile", "textwrap", "threading", "token", "tokenize", "traceback", "types", "typing", "warnings",
           "weakref", "zipfile", "zipfile._path")
