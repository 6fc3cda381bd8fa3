"""Screen to pixels: the core's screen model drawn as the 128x64 frame of the OLED (Pillow, luma's canvas)."""

from .frame import DIGITS, HEIGHT, WIDTH, draw_screen, render_image

__all__ = ["DIGITS", "HEIGHT", "WIDTH", "draw_screen", "render_image"]
