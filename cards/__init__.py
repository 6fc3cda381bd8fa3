"""Game data packaged with the banker: editions of the board (deeds and fixed amounts) in ``editions/``."""
