"""The unit's translations, packaged with it: one gettext catalog per language (``<code>/LC_MESSAGES/banker.po``,
compiled to ``banker.mo``), and the template they are made from (``banker.pot``).

The compiled ``.mo`` files are committed: the unit reads them with the standard library's :mod:`gettext` and needs
no Babel (``runtime/languages.py``). docs/languages.md says how to add a language and how to refresh the catalogs
after the shown texts change.
"""
