"""`python -m mahjong_calc` runs the CLI."""

from .cli import main

main()
