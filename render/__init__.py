"""Images of the game (built in a later issue): pure functions from a view to PNG bytes."""
