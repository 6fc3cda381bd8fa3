"""Multi-key flows of the unit as frozen values: the FN menu (the router), the PIN, the undo prompt.

:mod:`.base` gives the context a mode decides in and the reply it returns;
the rules flows (deeds, players, the game menu) are in :mod:`banker.flows`.
"""
