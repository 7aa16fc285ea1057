"""Super Human Locke: 5-10 players, hidden identities (seeds 000, 002, KMC rulebook)."""
