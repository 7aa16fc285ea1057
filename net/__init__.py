"""Fair-play cryptography (sans-I/O), sessions, and the Twisted transport."""
