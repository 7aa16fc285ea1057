"""Data shipped with the game: card sets, decks, fonts."""
