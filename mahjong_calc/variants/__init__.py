"""The variants floor: what variants share (common/) and one package per variant.

Each package (wuhu/, chizhou/, pujiang/) holds its ruleset dataclasses and arithmetic
(score.py), its detectors (patterns.py) and its liability rules (liability.py), and declares
its `VARIANT`. Importing this package imports no variant.
"""
