"""Multi-key modes of the unit as frozen values: the PIN, the undo prompt, and what every mode is made of.

:mod:`.base` gives the context a mode decides in and the reply it returns;
the flows (home screen, FN menu, deeds, players, the game menu) are in :mod:`banker.unit.flows`,
which import the modes, never the other way.
"""
