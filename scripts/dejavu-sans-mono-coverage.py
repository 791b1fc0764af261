#!/usr/bin/env python3
"""Writes the code points DejaVu Sans Mono has, by class, for the plain diagram style's test.

Usage: python3 scripts/dejavu-sans-mono-coverage.py [FONT] > server/src/render/text/dejavu_sans_mono.txt

FONT defaults to Debian's fonts-dejavu-core copy. Needs fontTools (PyPI: fonttools). Each
line is a range of code points the font maps to a glyph, with one class for the whole range:
  N  one column everywhere (East Asian width narrow, neutral or halfwidth; not combining)
  A  East Asian "ambiguous": two columns in terminals set for East Asian widths
  W  wide or fullwidth
  M  a combining mark (drawn over the character before it)
"""
import sys
import unicodedata

from fontTools.ttLib import TTFont

path = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
font = TTFont(path)
names = {record.nameID: record.toUnicode() for record in font["name"].names}


def kind(code_point):
    char = chr(code_point)
    if unicodedata.category(char).startswith("M"):
        return "M"
    width = unicodedata.east_asian_width(char)
    if width in ("W", "F"):
        return "W"
    if width == "A":
        return "A"
    return "N"


print(f"# {names[1]} {names[5]}: the code points it has, by class (Unicode "
      f"{unicodedata.unidata_version}).")
print("# Written by scripts/dejavu-sans-mono-coverage.py; N: one column everywhere, "
      "A: ambiguous width, W: wide, M: combining.")
ranges = []
for code_point in sorted(font.getBestCmap()):
    k = kind(code_point)
    if ranges and ranges[-1][1] == code_point - 1 and ranges[-1][2] == k:
        ranges[-1][1] = code_point
    else:
        ranges.append([code_point, code_point, k])
for first, last, k in ranges:
    print(f"{first:04X}..{last:04X} {k}" if first != last else f"{first:04X} {k}")
