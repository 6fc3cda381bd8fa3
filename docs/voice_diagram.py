"""The voice's wiring picture (docs/img/wiring-voice.svg): a MAX98357A I2S amplifier on the header, and the keypad
and buzzer lines moved off GPIO 18-21, drawn from runtime/pins.py (I2S_WIRES, I2S_MOVED) by docs/make_diagrams.py."""

from __future__ import annotations

from diagram_svg import COLOURS, DIM, INK, POWER, Svg, terminal

from runtime.pins import I2S_MOVED, I2S_WIRES, wires_of

AMP = "#ef6c00"


def voice_diagram() -> str:
    svg = Svg(900, 560, "The voice: a MAX98357A I2S amplifier, and the lines moved off GPIO 18-21")
    svg.text(30, 34, "Voice: a MAX98357A I2S amplifier and a 4-8 Ohm speaker", size=16, bold=True)
    svg.text(30, 56, "I2S takes GPIO 18-21 as one block: first move the buzzer and three keypad lines (below)",
             colour=DIM)
    svg.rect(30, 80, 170, 250, fill="#fff3e0", stroke=AMP, width=2, radius=8)
    svg.text(115, 104, "MAX98357A", size=13, anchor="middle", bold=True)
    board = ("LRC", "BCLK", "DIN", "GAIN", "SD", "GND", "VIN")  # as they stand on the board's strip
    for n, name in enumerate(board):
        y = 130 + n * 28
        svg.text(190, y + 4, name, size=13, anchor="end")
        svg.circle(200, y, 4, fill=AMP)
        wire = next((w for w in I2S_WIRES if w.terminal == name), None)
        if wire is None:
            note = "open: 9 dB" if name == "GAIN" else "open: (L+R)/2, always on"
            svg.text(214, y + 4, note, size=12, colour=DIM)
            continue
        colour = POWER.get(wire.line, AMP) if wire.gpio is None else AMP
        svg.line(204, y, 470, y, stroke=colour, width=2)
        terminal(svg, 492, y, wire)
        if wire.via:
            svg.text(700, y + 4, wire.via, size=11, colour=DIM)
    svg.text(115, 356, "+  -  to the speaker", size=12, anchor="middle")
    svg.rect(40, 368, 150, 36, fill="#eceff1", stroke=INK, radius=6)
    svg.text(115, 391, "speaker 4-8 Ohm, 3 W", size=11, anchor="middle")
    svg.text(30, 440, "Moved off GPIO 18-21 (set them in the config: [keypad] rows / columns, [buzzer] pin):",
             size=13, bold=True)
    for n, wire in enumerate(I2S_MOVED):
        old = next(w for w in wires_of(wire.device) if w.terminal == wire.terminal)
        y = 466 + n * 22
        svg.text(30, y, f"{wire.device} {wire.terminal}: pin {old.pin} ({old.line}) -> pin {wire.pin} ({wire.line})"
                 + (f", {wire.via}" if wire.via else ""), size=12, colour=COLOURS[wire.device])
    return svg.svg()
