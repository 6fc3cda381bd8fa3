"""The unit: events, the panel, the one step, the screen model, the voice, the modes and flows."""
