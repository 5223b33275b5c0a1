"""The rules floor: a ruleset's schema (schema.py), what a loaded ruleset is (ruleset.py),
the YAML loader (loader.py), its disk cache (cache.py) and the table of variants
(registry.py). It stands on the core and imports no variant."""
