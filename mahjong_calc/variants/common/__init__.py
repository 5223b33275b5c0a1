"""What the variants share: the reading loop (reading.py), the compact reading detectors see
(read.py, `SetsRead`), `detect` (detector_types.py), the shared detectors (detectors.py), the
settlement types (settlement.py), and advise's goals and plans (goals.py, plan.py)."""
