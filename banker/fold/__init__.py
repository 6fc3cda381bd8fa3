"""The fold: a journal's records folded into one game (authority, undo, history, the house rules)."""
