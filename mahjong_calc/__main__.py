"""`python -m mahjong_calc` runs the CLI."""

from .cli.entry import main

main()
