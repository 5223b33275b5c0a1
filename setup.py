"""setuptools entry point; everything is declared in pyproject.toml."""

from __future__ import annotations

from setuptools import setup

setup()
