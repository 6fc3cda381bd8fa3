"""Keypad scripts, the pure part: the format (``syntax``), the runner (``run``), the driver and its hands."""
