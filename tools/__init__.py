"""Command-line programs: match, peer, verify, bench, deck, scenario, ..."""
