"""The table page: its server, state and words, in a real Chromium."""
