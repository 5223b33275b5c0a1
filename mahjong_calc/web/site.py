"""`mjcalc site build DIR`: the page as a static folder that runs mjcalc on the phone alone.

The folder holds the page (web/static), a pinned Pyodide (the npm package `pyodide`, fetched
at build time with `npm pack`, or a local copy given with --pyodide), this package's own
pure-Python modules with its rulesets and PyYAML's in one zip, a web app manifest and a
service worker that keeps every file for offline use. Nothing is fetched from anywhere else
when the page runs: the Web Worker (static/worker.js) unpacks the zip into Pyodide's file
system and answers the page's API with `web/pocket.py`.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import struct
import subprocess
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from .pages import STATIC, page
from .site_pyodide import WASM, slim

PYODIDE_VERSION = "314.0.8"  # the npm package `pyodide` the site is built and tested with
PYODIDE_PACKAGE = f"pyodide@{PYODIDE_VERSION}"
# the files of the package a page needs (the rest are the console pages, types and source maps)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "package.json")
MAX_PYODIDE = 64 << 20  # bytes of one file of the package: the wasm is about 10 MB
SKIP_MODULES = ("cli", "__pycache__")  # the CLI (typer, rich) is not part of the page's engine
# only `mjcalc serve` (Starlette, uvicorn, its streams and limits) and the build run these: the page's engine is pocket.py
SKIP_FILES = ("app.py", "server.py", "access.py", "announcer.py", "context.py", "http.py", "pages.py", "routes_games.py", "rows.py",
              "season.py", "site.py", "site_pyodide.py", "starts.py", "streams.py", "work.py")
SERVER_ONLY = ("season.js", "sw.js")  # the season view reads a server's games; sw.js is written with the build's list


class SiteError(InputError):
    """The site cannot be built: no Pyodide to be had, or a folder that cannot take it (exit 2)."""


@dataclass(frozen=True)
class Built:
    """What `build` wrote: the folder, its files with their sizes, and the build's hash (the cache's name)."""

    root: Path
    files: dict[str, int]
    digest: str

    @property
    def total(self) -> int:
        return sum(self.files.values())


def _check_target(target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise SiteError("site_dir_not_empty", "{target}: is a file, not a folder for the site", target=target)
    if target.is_dir() and any(target.iterdir()):
        raise SiteError("site_dir_not_empty", "{target}: the folder is not empty; give a new or an empty folder", target=target)
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".mjcalc-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise SiteError("site_dir_not_writable", "{target}: {problem}", target=target, problem=exc.strerror or exc) from None


def _from_tgz(path: Path, out: Path) -> None:
    """The needed files out of an `npm pack` tarball (`package/<file>`), read by name, never extracted whole."""
    try:
        with tarfile.open(path, "r:gz") as tar:
            for name in PYODIDE_FILES:
                try:
                    member = tar.getmember(f"package/{name}")
                except KeyError:
                    raise SiteError("bad_pyodide", "{path}: has no package/{name}; give the tarball `npm pack {package}` writes, or its unpacked folder",
                                    path=path, name=name, package=PYODIDE_PACKAGE) from None
                if not member.isfile() or member.size > MAX_PYODIDE:
                    raise SiteError("bad_pyodide", "{path}: package/{name} is not a regular file of at most {limit} bytes",
                        path=path, name=name, limit=MAX_PYODIDE)
                source = tar.extractfile(member)
                assert source is not None
                with source, open(out / name, "wb") as dest:
                    shutil.copyfileobj(source, dest)
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise SiteError("bad_pyodide", "{path}: not a readable npm tarball ({exc})", path=path, exc=exc) from None


def _from_dir(path: Path, out: Path) -> None:
    root = path / "package" if (path / "package" / "pyodide.mjs").is_file() else path
    for name in PYODIDE_FILES:
        source = root / name
        if not source.is_file():
            raise SiteError("bad_pyodide", "{path}: has no {name}; give the folder of the npm package {package} (or its tarball)",
                path=path, name=name, package=PYODIDE_PACKAGE)
        if source.stat().st_size > MAX_PYODIDE:
            raise SiteError("bad_pyodide", "{file}: over {limit} bytes, not a Pyodide file", file=source, limit=MAX_PYODIDE)
        shutil.copyfile(source, out / name)


def _check_pyodide(out: Path, given: str) -> None:
    try:
        meta = json.loads((out / "package.json").read_text(encoding="utf-8"))
        lock = json.loads((out / "pyodide-lock.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SiteError("bad_pyodide", "{given}: package.json or pyodide-lock.json cannot be read ({exc})", given=given, exc=exc) from None
    if not isinstance(meta, dict) or meta.get("name") != "pyodide" or not isinstance(lock, dict):
        raise SiteError("bad_pyodide", "{given}: not the npm package `pyodide`", given=given)
    if meta.get("version") != PYODIDE_VERSION:
        raise SiteError("bad_pyodide", "{given}: pyodide {found}, but the site is built with {version} (`npm pack {package}`)",
                        given=given, found=str(meta.get("version"))[:20], version=PYODIDE_VERSION, package=PYODIDE_PACKAGE)
    with open(out / "pyodide.asm.wasm", "rb") as wasm:
        if wasm.read(4) != b"\0asm":
            raise SiteError("bad_pyodide", "{given}: pyodide.asm.wasm is not WebAssembly", given=given)
    if not zipfile.is_zipfile(out / "python_stdlib.zip"):
        raise SiteError("bad_pyodide", "{given}: python_stdlib.zip is not a zip file", given=given)


def _npm_pack(into: Path) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise SiteError("npm_unavailable", "npm is not installed: install it (Debian: apt-get install npm) or give a local copy"
            " of {package} with --pyodide PATH",
                        package=PYODIDE_PACKAGE)
    try:
        done = subprocess.run([npm, "pack", PYODIDE_PACKAGE, "--silent", "--pack-destination", str(into)],
                              capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SiteError("npm_failed", "npm pack {package}: {exc}", package=PYODIDE_PACKAGE, exc=exc) from None
    tarballs = sorted(into.glob("pyodide-*.tgz"))
    if done.returncode != 0 or not tarballs:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise SiteError("npm_failed", "npm pack {package} failed ({said}); give a local copy with --pyodide PATH",
                        package=PYODIDE_PACKAGE, said=said[-1][:200] if said else f"exit {done.returncode}")
    return tarballs[0]


def fetch_pyodide(out: Path, given: Path | None) -> None:
    """The pinned Pyodide's files into `out`: from `given` (a tarball or a folder), or from the npm registry."""
    if given is None:
        with tempfile.TemporaryDirectory() as tmp:
            _from_tgz(_npm_pack(Path(tmp)), out)
        _check_pyodide(out, f"npm pack {PYODIDE_PACKAGE}")
        return
    if given.is_dir():
        _from_dir(given, out)
    elif given.is_file():
        _from_tgz(given, out)
    else:
        raise SiteError("bad_pyodide", "{given}: no such file or folder (give the tarball of `npm pack {package}` or its folder)",
            given=given, package=PYODIDE_PACKAGE)
    _check_pyodide(out, str(given))


def _package_files(root: Path, prefix: str) -> Iterator[tuple[Path, str]]:
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or rel.parts[0] in SKIP_MODULES or "__pycache__" in rel.parts or "static" in rel.parts:
            continue
        if path.suffix not in (".py", ".json", ".yaml", ".typed", ".po", ".mo") or (rel.parts[0] == "web" and rel.name in SKIP_FILES):
            continue
        yield path, f"{prefix}/{rel.as_posix()}"


def python_zip() -> bytes:
    """This package's pure-Python modules, its rulesets and PyYAML's pure-Python modules, in one zip."""
    import mahjong_calc

    from ..rules.loader import rulesets_dir

    try:
        import yaml
    except ImportError:
        raise SiteError("missing_package", "PyYAML is not installed; the page ships its pure-Python modules") from None
    package = Path(mahjong_calc.__file__).resolve().parent
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        def add(path: Path, name: str) -> None:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # the same bytes for the same sources
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes())

        for path, name in _package_files(package, "mahjong_calc"):
            if "rulesets" not in Path(name).parts:
                add(path, name)
        for path in sorted(rulesets_dir().glob("*.yaml")):
            add(path, f"mahjong_calc/rulesets/{path.name}")
        for path in sorted(Path(yaml.__file__).resolve().parent.glob("*.py")):
            add(path, f"yaml/{path.name}")
    return out.getvalue()


def _png(size: int) -> bytes:
    """The app's icon: a green square with a white tile (a PNG made here, no image library)."""
    rows = []
    lo, hi = size * 3 // 10, size * 7 // 10
    top, bottom = size * 2 // 10, size * 8 // 10
    for y in range(size):
        row = bytearray(b"\0")
        for x in range(size):
            inside = lo <= x < hi and top <= y < bottom
            row += bytes((250, 248, 240)) if inside else bytes((29, 110, 80))
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def manifest() -> str:
    """The web app manifest: installable, opens standalone at the page."""
    return json.dumps({
        "name": "mjcalc 麻将算分", "short_name": "mjcalc", "lang": "zh", "start_url": "./", "scope": "./",
        "display": "standalone", "background_color": "#f6f4ee", "theme_color": "#1d6e50",
        "icons": [{"src": f"static/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any"} for n in (192, 512)],
    }, ensure_ascii=False, indent=1)


def _index() -> str:
    """The page's index.html, saying that its home is the browser alone, with the manifest."""
    return page("index", "static/", more='<meta name="mjcalc-home" content="site">\n<link rel="manifest" href="manifest.webmanifest">\n'
                                         '<meta name="theme-color" content="#1d6e50">\n')


def build(target: Path, pyodide: Path | None = None) -> Built:
    """Write the static site into `target` (new or empty); the files written and their sizes."""
    from . import api, pocket
    from .page_words import words_json

    _check_target(target)
    try:
        static = target / "static"
        static.mkdir()
        (static / "pyodide").mkdir()
        fetch_pyodide(static / "pyodide", pyodide)
        for path in sorted(STATIC.iterdir()):
            if path.is_file() and path.suffix in (".js", ".css") and path.name not in SERVER_ONLY:
                shutil.copyfile(path, static / path.name)
        package = python_zip()
        (static / "mjcalc.zip").write_bytes(package)
        slim(static / "pyodide", package)  # only what the page uses of Pyodide, the wasm gzipped (site_pyodide.py)
        # answered at once while Python loads: the same functions `mjcalc serve` answers them with
        (static / "variants.json").write_text(api.answer_variants()[1], encoding="utf-8")
        (static / "messages.json").write_text(pocket.messages(), encoding="utf-8")
        (static / "words.json").write_text(words_json(), encoding="utf-8")
        for n in (192, 512):
            (static / f"icon-{n}.png").write_bytes(_png(n))
        (target / "index.html").write_text(_index(), encoding="utf-8")
        (target / "manifest.webmanifest").write_text(manifest(), encoding="utf-8")
        files = {p.relative_to(target).as_posix(): p.stat().st_size for p in sorted(target.rglob("*")) if p.is_file()}
        digest = hashlib.sha256()
        for name in files:
            digest.update(name.encode() + b"\0" + (target / name).read_bytes())
        build_id = digest.hexdigest()[:16]
        site = {"mjcalc": _version(), "pyodide": PYODIDE_VERSION, "build": build_id, "files": ["./", *files],
                "unpacked": [f"static/pyodide/{WASM}"]}  # kept unpacked by the service worker too (static/sw.js)
        (static / "site.json").write_text(json.dumps(site, indent=1), encoding="utf-8")
        # the service worker carries the build's list, so that a new build is a new worker (the browser compares its bytes)
        (target / "sw.js").write_text(f"self.SITE = {json.dumps(site)};\n" + (STATIC / "sw.js").read_text(encoding="utf-8"), encoding="utf-8")
    except OSError as exc:
        raise SiteError("site_dir_not_writable", "{target}: {problem}", target=target, problem=exc.strerror or exc) from None
    written = {p.relative_to(target).as_posix(): p.stat().st_size for p in sorted(target.rglob("*")) if p.is_file()}
    return Built(target, written, build_id)


def _version() -> str:
    from ..core import __version__

    return __version__


__all__ = ["PYODIDE_VERSION", "Built", "SiteError", "build", "fetch_pyodide", "manifest", "python_zip"]
