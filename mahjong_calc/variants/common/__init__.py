"""What the variants share: the reading loop (reading.py), `Candidate` and `detect`
(candidate.py), the shared detectors (detectors.py) and the settlement types (settle.py)."""
