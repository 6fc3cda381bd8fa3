"""The desktop simulator's window, panels, sound and command."""
