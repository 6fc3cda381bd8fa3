"""Small words of the messages: a count with its noun in the right number, the nearest known name to a typo.

``plural(1, "jail card")`` is ``"1 jail card"``, ``plural(2, "jail card")``
``"2 jail cards"``; ``did_you_mean("boardwalkk", slugs)`` is
``" (did you mean 'boardwalk'?)"``, or ``""`` when nothing is close, so a
message reads whole either way. Close means as click's own suggestions
judge it (:func:`difflib.get_close_matches`, ratio 0.6 and more).
"""

from __future__ import annotations

from collections.abc import Iterable


#: How much less alike than the nearest word another may be and still be offered with it.
TIE = 0.05


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and its ``noun`` in the right number: ``1 house``, ``0 houses``, ``2 houses``; ``nouns`` when the
    plural isn't the noun and an ``s`` (``plural(2, "match", "matches")``)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def nearest(word: str, known: Iterable[str], *, fold=str.casefold) -> list[str]:
    """The known words nearest ``word``: the closest, and any as close as it (at most three); none when nothing
    is close, or when ``word`` is itself known.

    Compared after ``fold`` (case-folded: ``Alcie`` is near ``alice``), returned as spelt in ``known``.
    """
    from difflib import SequenceMatcher, get_close_matches  # only when a word wasn't found: the unit needn't load it

    spelt: dict[str, str] = {}
    for name in known:
        spelt.setdefault(fold(name), name)
    target = fold(word)
    if not target or target in spelt:
        return []
    close = get_close_matches(target, list(spelt), n=3, cutoff=0.6)
    if not close:
        return []
    best = SequenceMatcher(None, target, close[0]).ratio()
    return [spelt[m] for m in close if SequenceMatcher(None, target, m).ratio() >= best - TIE]


def did_you_mean(word: str, known: Iterable[str], *, fold=str.casefold) -> str:
    """``" (did you mean 'x'?)"`` (or ``'x' or 'y'``) for the known words nearest ``word``; ``""`` when none is."""
    close = nearest(word, known, fold=fold)
    if not close:
        return ""
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)"
