"""Rebuild the bundled Japanese UI font (a subset of Noto Sans CJK JP).

Why a subset: the full font is ~20 MB; the game needs ASCII, kana, CJK
punctuation, the kanji of JIS X 0208 level 1 (the everyday set) and any
kanji that appear in the shipped assets or the client's UI strings. Only
the Regular face carries all of JIS level 1 (for player names and future
text); the Bold face covers the project's own text. The result is about
1.9 MB and is committed; this script is only needed when new
text brings new kanji.

Usage (needs fonttools and Debian's fonts-noto-cjk)::

    .venv/bin/pip install fonttools
    apt-get install fonts-noto-cjk
    .venv/bin/python assets/fonts/make_subset.py

The family is renamed ("Fairtable Sans JP") as the SIL OFL asks of modified
versions; the licence is in OFL.txt beside the font.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {
    "Regular": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    "Bold": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
}
FAMILY = "Fairtable Sans JP"


def jis_level1_kanji() -> str:
    """The 2,965 kanji of JIS X 0208 level 1 (EUC-JP rows 16-47)."""
    out = []
    for row in range(16, 48):
        for cell in range(1, 95):
            try:
                out.append(bytes((0xA0 + row, 0xA0 + cell)).decode("euc_jp"))
            except UnicodeDecodeError:
                continue
    return "".join(out)


def text_in_project() -> str:
    """Every character in the shipped assets and the client's sources and word catalogues (.po)."""
    chunks = []
    for folder, patterns in ((ROOT / "assets", ("*.json", "*.md")), (ROOT / "client", ("*.py", "*.po"))):
        for pattern in patterns:
            for file in folder.rglob(pattern):
                chunks.append(file.read_text(encoding="utf-8"))
    return "".join(chunks)


def wanted_codepoints(jis_level1: bool = True) -> set[int]:
    ranges = [
        (0x20, 0x7E),  # ASCII
        (0xA0, 0xFF),  # Latin-1 (names, x, middle dot)
        (0x2010, 0x2027),  # dashes, quotes, ellipsis
        (0x2190, 0x2193),  # arrows
        (0x2460, 0x2473),  # circled digits
        (0x25A0, 0x25CF),  # squares, triangles, circles
        (0x2605, 0x2606),  # stars
        (0x3000, 0x303F),  # CJK punctuation
        (0x3040, 0x309F),  # hiragana
        (0x30A0, 0x30FF),  # katakana
        (0xFF01, 0xFF5E),  # full-width forms
        (0xFF61, 0xFF9F),  # half-width katakana
    ]
    points = {cp for lo, hi in ranges for cp in range(lo, hi + 1)}
    if jis_level1:
        points |= {ord(c) for c in jis_level1_kanji()}
    points |= {ord(c) for c in text_in_project() if ord(c) >= 0x20}
    return points


def japanese_font(collection: Path):  # type: ignore[no-untyped-def]
    for font in TTCollection(str(collection)).fonts:
        if "JP" in font["name"].getDebugName(1):
            return font
    raise SystemExit(f"no Japanese face in {collection}")


def build(style: str, source: Path, points: set[int]) -> Path:
    font = japanese_font(source)
    options = subset.Options()
    options.layout_features = ["kern", "palt", "vert", "liga", "locl"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=points)
    subsetter.subset(font)
    name = font["name"]
    full = f"{FAMILY} {style}"
    ps = f"FairtableSansJP-{style}"
    for record in list(name.names):
        if record.nameID in (1, 16):
            record.string = FAMILY
        elif record.nameID == 4:
            record.string = full
        elif record.nameID in (3, 6):
            record.string = ps
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps]
        top = cff.topDictIndex[0]
        top.FullName = full
        top.FamilyName = FAMILY
    out = ROOT / "assets" / "fonts" / f"FairtableSansJP-{style}.otf"
    font.save(str(out))
    return out


def main() -> int:
    for style, source in SOURCES.items():
        # Bold (titles, names, buttons) covers the project's own text only, to
        # keep the download small; the client falls back to Regular for any
        # other character (a player's name, say).
        points = wanted_codepoints(jis_level1=style == "Regular")
        if not source.exists():
            print(f"missing {source}: apt-get install fonts-noto-cjk", file=sys.stderr)
            return 1
        out = build(style, source, points)
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size // 1024} KiB, {len(points)} code points requested")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
