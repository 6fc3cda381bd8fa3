"""The unit's error family: one root, leaves that also subclass the matching built-in.

A user's mistake (a bad amount, a refused payment) is caught by the unit and
becomes a message on the screen and a refusal tone; a programming error raises.
"""


class BankerError(Exception):
    """Root of every error the banker raises on purpose.

    Its message may be a shown text (:func:`banker.text.i18n._`): ``str(exc)`` is then that text, English in value,
    which the screen shows in the game's language."""

    def __str__(self) -> str:
        message = self.args[0] if len(self.args) == 1 else None
        return message if isinstance(message, str) else super().__str__()


class AmountError(BankerError, ValueError):
    """An amount that is malformed, zero, or not a whole number of dollars."""


class Refused(BankerError):
    """A transaction the rules or the balances do not allow; nothing was posted."""


class InsufficientFunds(Refused):
    """The payer cannot cover the amount; ``shortfall`` dollars are missing."""

    def __init__(self, message: str, shortfall: int) -> None:
        super().__init__(message)
        self.shortfall = shortfall


class LedgerError(BankerError, OSError):
    """The ledger could not commit or read (disk full, I/O error, locked)."""


class CorruptLedger(LedgerError):
    """The ledger's file is not a banker database, or its journal does not verify."""


class ConfigError(BankerError, ValueError):
    """A configuration file or option that cannot be used as given."""


class ScriptError(BankerError, ValueError):
    """A keypad script line that cannot be parsed; ``line`` is its 1-based number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line, self.message = line, message

    def at(self, line: int) -> "ScriptError":
        """This error, told of script line ``line`` when it was raised without one (``line`` 0)."""
        return self if self.line else ScriptError(line, self.message)
