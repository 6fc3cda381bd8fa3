"""The official rules as pure functions of a position, and the money they move."""
