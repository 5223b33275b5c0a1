"""Regenerate what is derived from the flag table: `python -m mahjong_calc.generate [--check]`.

Writes mahjong_calc/record.schema.json and the flag table in README.md from
mahjong_calc/core/flags.py; with --check, only says which is out of date (exit 1).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .core.flags import readme_with_table, schema_text

PACKAGE = Path(__file__).resolve().parent
SCHEMA = PACKAGE / "record.schema.json"
README = PACKAGE.parent / "README.md"  # present in a source checkout, not in a wheel


def targets() -> list[tuple[Path, str]]:
    """(file, the text it should hold)."""
    out = [(SCHEMA, schema_text())]
    if README.exists():
        out.append((README, readme_with_table(README.read_text(encoding="utf-8"))))
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    stale = [(path, text) for path, text in targets() if not path.exists() or path.read_text(encoding="utf-8") != text]
    for path, text in stale:
        if "--check" in args:
            print(f"{path} is out of date: run python -m mahjong_calc.generate", file=sys.stderr)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 1 if stale and "--check" in args else 0


if __name__ == "__main__":
    raise SystemExit(main())
