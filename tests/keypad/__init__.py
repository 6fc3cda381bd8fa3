"""The unit's keypad flows, modes and screens, and keypad scripts on every backend."""
