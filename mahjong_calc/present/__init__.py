"""Presentation: Rich tables and JSON for results (render.py) and games (render_game.py),
and what each ruleset option means (option_docs.py). It computes nothing."""
