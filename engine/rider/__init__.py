"""The Rider card game: 2 players, 24-card decks, three columns (seed 003)."""
