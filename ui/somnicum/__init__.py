"""Somnicum on the touchscreen: the score pad and the game screens."""
