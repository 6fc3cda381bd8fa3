"""The languages: catalogs, their fit on the OLED, the terms kept, names in the game's language."""
