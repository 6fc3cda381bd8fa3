"""The fold: records into a game, names, authority, the lockout, the play clock, retired players."""
