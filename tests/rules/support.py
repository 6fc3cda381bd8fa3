"""What the rules tests share: amounts in K and M, and the check that a refusal fits the screen."""

from contextlib import contextmanager

import pytest

from banker.errors import Refused

K, M = 1_000, 1_000_000


@contextmanager
def refused(message, error=Refused):
    """Expect a refusal whose message fits one 21-character OLED line."""
    with pytest.raises(error, match=message) as refusal:
        yield refusal
    assert len(str(refusal.value)) <= 21
