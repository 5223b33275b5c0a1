"""docs/architecture.md's recipes name exactly the files a change needs.

The lists are data here; the doc's "A win flag" and "Adding a variant" paragraphs must name
each file of them, and the toy variant of the tests must be exactly its list plus the
registration (tests/test_variants.py scores with it; tests/test_toy_flag.py does the same
for a flag).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "architecture.md"

# A toy variant: its scorer, schema and detectors in one module, its YAML, and
# `register_variant(TOY)` (nothing else in mahjong_calc/ changes).
TOY_VARIANT_FILES = ("tests/toy_variant.py", "tests/data/toy.yaml")
TOY_VARIANT_REGISTRATION = "register_variant(TOY)"
# A win flag: one Field, its WinContext fact, a detector, then `python -m mahjong_calc.generate`.
FLAG_FILES = ("flags.py", "context.py")
FLAG_STEPS = ("`Field`", "`WinContext`", "python -m mahjong_calc.generate")


def _paragraph(start: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    at = text.index(start)
    end = re.search(r"\n(?:- \*\*|## )", text[at + len(start):])
    return text[at: at + len(start) + (end.start() if end else len(text))]


def test_the_variant_recipe_names_the_toy_files_and_the_registration() -> None:
    recipe = _paragraph("## Adding a variant")
    for name in (*TOY_VARIANT_FILES, TOY_VARIANT_REGISTRATION):
        assert f"`{name}`" in recipe, name


def test_the_toy_variant_is_those_files() -> None:
    for name in TOY_VARIANT_FILES:
        assert (REPO / name).is_file(), name
    toy = (REPO / TOY_VARIANT_FILES[0]).read_text(encoding="utf-8")
    assert "YAML" in toy and "Variant(" in toy  # the one line of the table is in the module
    assert (REPO / "tests" / "test_variants.py").read_text(encoding="utf-8").count(TOY_VARIANT_REGISTRATION) >= 1


def test_the_flag_recipe_names_its_files_and_steps() -> None:
    recipe = _paragraph("- **A win flag**")
    for name in (*FLAG_FILES, *FLAG_STEPS):
        assert name in recipe, name
    assert "tests/test_toy_flag.py" in recipe
