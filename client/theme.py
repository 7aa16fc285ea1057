"""Colours and proportions shared by every scene (one place to restyle)."""

from __future__ import annotations

Colour = tuple[int, int, int]

BG = (24, 30, 38)
BG_FELT = (28, 58, 50)
BG_FELT_DARK = (20, 44, 38)
PANEL = (34, 41, 52)
PANEL_EDGE = (64, 76, 94)
TEXT = (234, 236, 240)
TEXT_DIM = (150, 160, 175)
TEXT_DARK = (22, 24, 28)
ACCENT = (240, 190, 70)
ACCENT_DARK = (150, 110, 30)
GOOD = (96, 200, 120)
BAD = (230, 90, 80)
WARN = (240, 170, 60)
INFO = (110, 170, 240)
HILITE = (255, 225, 120)
TARGET = (120, 220, 255)
BUTTON = (58, 70, 88)
BUTTON_HOVER = (78, 94, 118)
BUTTON_PRIMARY = (196, 140, 40)
BUTTON_PRIMARY_HOVER = (222, 166, 60)
BUTTON_DISABLED = (44, 50, 60)
SHADOW = (0, 0, 0)

#: Frame and fill colours per card attribute: (frame, light fill, dark band).
ATTRIBUTE_COLOURS: dict[str, tuple[Colour, Colour, Colour]] = {
    "flame": ((196, 62, 40), (248, 214, 196), (140, 36, 24)),
    "tide": ((40, 110, 196), (202, 224, 248), (22, 66, 140)),
    "gale": ((52, 160, 92), (208, 240, 214), (28, 104, 58)),
    "stone": ((150, 112, 64), (236, 222, 196), (96, 70, 38)),
    "spark": ((140, 80, 200), (230, 214, 248), (88, 44, 140)),
    "free": ((150, 156, 166), (236, 238, 242), (92, 98, 110)),
}
POWER_NORMAL = (246, 204, 50)
POWER_FULL = (222, 58, 48)
CARD_BACK = (36, 52, 98)
CARD_BACK_EDGE = (200, 170, 90)
