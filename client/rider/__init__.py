"""The Rider table: layout, intents, descriptions, the scene and its driver."""
