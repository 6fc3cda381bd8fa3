"""The table page: a read-only page (and JSON API) that every phone and the TV open to watch the game live.

``banker web`` serves it for a ledger file; ``banker run --web`` and
``banker sim --web`` serve it beside the unit with :func:`serve_in_background`.
docs/web.md describes the page, the API, the security and the cost.

>>> from runtime.ledger import SqliteLedger
>>> with SqliteLedger(":memory:") as ledger, serve_in_background(ledger, host="127.0.0.1", port=0) as page:
...     page.url.startswith("http://127.0.0.1:")
True
"""

__all__ = ["PageServer", "page_url", "serve_in_background"]


def __getattr__(name: str):
    """The server's names, imported when first used: importing ``web.demo`` or ``web.view`` loads no aiohttp."""
    if name in __all__:
        from . import background

        return getattr(background, name)
    raise AttributeError(f"module 'web' has no attribute {name!r}")
