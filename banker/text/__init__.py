"""Text: the unit's words and their catalogs' markers, counts and names, safe printing, quoting."""
