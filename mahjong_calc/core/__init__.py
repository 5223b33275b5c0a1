"""The core floor: tiles, flags, the hand and its shapes, wilds, seats, results, records,
errors and stdout. It imports nothing above itself."""

__version__ = "0.1.0"
