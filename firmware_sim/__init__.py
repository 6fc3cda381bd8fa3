"""Simulated hardware: chip-level fakes, the desktop simulator and the keypad-script backends."""
