"""`python -m mahjong_calc` runs the CLI."""

from .cli.app import main

main()
