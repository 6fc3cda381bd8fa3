"""The RDM6300 125 kHz reader: frames parsed and checked, garbage rejected, presence over a pyserial loop:// port."""

from __future__ import annotations

import pytest
import serial
from hypothesis import given, strategies as st

from banker.unit.events import CardPlaced, CardRemoved
from drivers.card_slots import CardSlots, ReaderError, ReaderLibraryMissing, ReaderNotFound
from drivers.rfid_uart import Rdm6300FrameParser, Rdm6300Reader, encode_frame
from firmware_sim.fake_rpi import broken_imports
from firmware_sim.mfrc522_chip import SimClock

CARD = "0A1B2C3D4E"
FRAME = encode_frame(CARD)


# --- framing -----------------------------------------------------------------
def test_a_frame_is_start_ten_hex_digits_checksum_end():
    assert FRAME == b"\x02" + b"0A1B2C3D4E" + b"%02X" % (0x0A ^ 0x1B ^ 0x2C ^ 0x3D ^ 0x4E) + b"\x03"
    assert Rdm6300FrameParser().feed(FRAME) == [CARD]


def test_garbage_before_and_between_frames_is_skipped():
    parser = Rdm6300FrameParser()
    assert parser.feed(b"\x00\xffnoise\r\n" + FRAME + b"\x03\x03" + FRAME) == [CARD, CARD]


def test_a_bad_checksum_is_rejected():
    parser = Rdm6300FrameParser()
    bad = FRAME[:11] + (b"00" if FRAME[11:13] != b"00" else b"01") + b"\x03"
    assert parser.feed(bad) == [] and parser.rejected == 1


def test_non_hex_characters_and_wrong_lengths_are_rejected():
    parser = Rdm6300FrameParser()
    assert parser.feed(b"\x020A1B2C3D4G57\x03") == []         # G is not hex
    assert parser.feed(b"\x020A1B2C3D4E\x03") == []           # no checksum
    assert parser.feed(FRAME[:-1] + b"9\x03") == []           # one character too many
    assert parser.rejected == 3


def test_a_frame_cut_short_resynchronises_on_the_next_start():
    parser = Rdm6300FrameParser()
    assert parser.feed(FRAME[:6] + FRAME) == [CARD] and parser.rejected == 1


@given(st.integers(min_value=1, max_value=13))
def test_a_frame_split_across_reads_is_still_read(cut):
    parser = Rdm6300FrameParser()
    assert parser.feed(FRAME[:cut]) == [] and parser.feed(FRAME[cut:]) == [CARD]


@given(st.binary(max_size=200), st.binary(max_size=200))
def test_noise_never_hides_a_following_good_frame_nor_makes_up_a_card(noise, tail):
    parser = Rdm6300FrameParser()
    for uid in parser.feed(noise + b"\x03"):
        assert encode_frame(uid) in noise            # anything read was a real frame in the noise
    assert parser.feed(FRAME) == [CARD]
    for uid in parser.feed(tail):
        assert encode_frame(uid) in tail


# --- the reader over loop:// -----------------------------------------------------
@pytest.fixture
def clock():
    return SimClock()


@pytest.fixture
def minus(clock):
    with Rdm6300Reader("loop://", clock=clock) as reader:
        yield reader


def test_a_card_held_to_the_reader_is_read(minus):
    assert minus.poll() is None
    minus.port.write(FRAME)
    assert minus.poll() == CARD


def test_the_card_is_gone_when_frames_stop_for_the_timeout(minus, clock):
    minus.port.write(FRAME)
    assert minus.poll() == CARD
    clock.sleep(0.2)
    assert minus.poll() == CARD                        # frames come every ~100 ms: still there
    clock.sleep(0.2)
    assert minus.poll() is None


def test_bad_frames_on_the_wire_read_as_no_card(minus):
    minus.port.write(b"\x020A1B2C3D4E00\x03" + b"\xff" * 30)
    assert minus.poll() is None and minus.parser.rejected == 1


def test_the_uart_reader_feeds_the_slot_debouncer(minus, clock):
    slots = CardSlots({"right": minus}, clock=clock)
    events = []
    for tick in range(40):                             # 2 s at 50 ms; the card lies there for the first 1 s
        if tick < 20 and tick % 2 == 0:
            minus.port.write(FRAME)
        events += slots.poll()
        clock.sleep(0.05)
    assert [(type(e), e.reader) for e in events] == [(CardPlaced, "right"), (CardRemoved, "right")]
    assert events[0].uid == CARD and 1.0 < events[1].t < 1.7


def test_a_new_card_replaces_the_old_one_at_once(minus):
    minus.port.write(FRAME)
    minus.poll()
    minus.port.write(encode_frame("00DEADBEEF"))
    assert minus.poll() == "00DEADBEEF"


def test_a_closed_reader_says_so(minus):
    minus.close()
    with pytest.raises(ReaderError, match="closed"):
        minus.poll()


def test_a_serial_port_that_cannot_open_gives_a_clear_error():
    with pytest.raises(ReaderNotFound, match="UART enabled"):
        Rdm6300Reader("/dev/no-such-serial-port")


def test_pyserial_missing_gives_a_clear_error():
    with broken_imports({"serial": None}):
        with pytest.raises(ReaderLibraryMissing, match="pip install pyserial"):
            Rdm6300Reader("loop://")


def test_an_injected_port_is_used_as_is():
    port = serial.serial_for_url("loop://", timeout=0)
    reader = Rdm6300Reader(port=port)
    port.write(FRAME)
    assert reader.poll() == CARD
    reader.close()
    assert not port.is_open


def test_broken_imports_puts_the_real_module_back():
    import importlib
    with broken_imports({"serial": None}):
        with pytest.raises(ImportError):
            importlib.import_module("serial")
    assert importlib.import_module("serial") is serial
