"""Fairtable rules engine: pure, deterministic reducers. No I/O, clock or randomness."""
