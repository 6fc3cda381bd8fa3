"""Keypad scripts: their syntax and the one driver that plays them against the core."""
