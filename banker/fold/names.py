"""Names that look alike: the confusable skeleton of Unicode's TR39, so ``Аlice`` (Cyrillic А) is ``Alice``.

Two players' names, or a player's and the bank's, must not read alike on
the screen or in the journal: a payment to ``bаnk`` would read as one to the
bank (the fold's enrolment check, :func:`banker.fold.game.check_enrolment`,
refuses such a name). :func:`skeleton` is UTS #39's skeleton (each character replaced by its
prototype, between two NFD normalisations) of the name as the game compares
names (NFKC), case-folded after: names are equal regardless of case
already, so ``B0B`` (digit zero) is ``Bob`` too.

The prototypes are Unicode's own (``confusables.txt``), kept as data in
:mod:`banker.text.confusables_data` for the scripts a table may meet: Latin,
Greek, Cyrillic and common punctuation (a character NFKC already maps,
like a fullwidth or mathematical letter, is never looked up). A character
of another script stands for itself. The table is generated at development
time, and checked against Unicode's data by tests/fold/test_names.py.

>>> skeleton("Аlice") == skeleton("Alice"), skeleton("bаnk") == skeleton("bank")
(True, True)
>>> skeleton("Al") == skeleton("A1"), skeleton("Alice") == skeleton("Alec")
(True, False)
>>> skeleton("\u034fbank") == skeleton("bank"), skeleton("Bo\ufe0fb") == skeleton("Bob")
(True, True)
"""

from __future__ import annotations

import unicodedata

from banker.text.confusables_data import PROTOTYPES


#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters that show nothing
#: (joiners, fillers, variation selectors, tags). UTS #39's skeleton drops them: ``B\u115fob`` reads as ``Bob``.
IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
             (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
             (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def ignorable(ch: str) -> bool:
    """True for a character that shows nothing (:data:`IGNORABLE`)."""
    code = ord(ch)
    return any(low <= code <= high for low, high in IGNORABLE)


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal for two names a player could take for each other."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).strip())
    mapped = "".join(PROTOTYPES.get(ch, ch) for ch in text if not ignorable(ch))
    return unicodedata.normalize("NFD", mapped).casefold()


def look_alike(name: str, other: str) -> bool:
    """True when ``name`` and ``other`` read alike (the same skeleton)."""
    return skeleton(name) == skeleton(other)


def twin_of(name: str, others: list[str]) -> str | None:
    """What ``name`` reads like among the bank and the players ``others``: "the bank", a name, or None."""
    if look_alike(name, "bank"):
        return "the bank"
    return next((other for other in others if look_alike(other, name)), None)


def fold_name(name: str) -> str:
    """A name as it is compared: Unicode-normalised (NFKC) and case-folded."""
    return unicodedata.normalize("NFKC", name).casefold().strip()
