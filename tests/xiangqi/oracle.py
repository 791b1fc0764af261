#!/usr/bin/env python3
"""Writes tests/xiangqi/expected/: the boards xiangqi-setup 2.2.0 reads from every file of
tests/xiangqi/samples/ and tests/xiangqi/cases/, with its own readers.

The test suite compares ppn-ls with these files and never needs xiangqi-setup. Run this
only when a test file is added or changed, with xiangqi-setup installed in a virtual
environment outside the repository:

    python3 -m venv /tmp/xq && /tmp/xq/bin/pip install xiangqi-setup==2.2.0
    /tmp/xq/bin/python tests/xiangqi/oracle.py

For each file it writes `{"reader", "states": [{"men", "annotations"}]}`: the reader
xiangqi-setup picks for the content (as its command line does), then per state (the
position, or a WXF record after 0, 1, 2, ... moves) the men on the board as sorted words
like `Ra0` (upper case Red, files a..i, ranks 0..9 from Red's side) and the annotations
as `code@square` in the order read. Atoms xiangqi-setup places off the board (a row
that is too wide, an eleventh row) are left out. When xiangqi-setup rejects the file,
`{"reader", "error"}` instead.
"""

import contextlib
import io
import json
import sys
from pathlib import Path

import yaml
from xiangqi_setup.annotations import ANNOTATION_NAME_OF_ATOM_CODE, PutAnnotation
from xiangqi_setup.file_formats.annofen import is_annofen_content, iterate_annofen_tokens
from xiangqi_setup.file_formats.fen import iterate_fen_tokens
from xiangqi_setup.file_formats.wxf import _MOVES_EXTRACTOR, _SINGLE_MOVE_EXTRACTOR, iterate_wxf_tokens
from xiangqi_setup.file_formats.xay import is_xay_content, iterate_xay_tokens
from xiangqi_setup.parties import RED
from xiangqi_setup.pieces import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, PAWN

HERE = Path(__file__).resolve().parent
LETTER = {CHARIOT: "R", HORSE: "H", ELEPHANT: "E", ADVISOR: "A", KING: "K", CANNON: "C", PAWN: "P"}
CODE_OF_NAME = {name: code for code, name in ANNOTATION_NAME_OF_ATOM_CODE.items()}


def reader_of(content):
    if is_annofen_content(content):
        return "annofen"
    if is_xay_content(content):
        return "xay"
    if "WXF" in content:
        return "wxf"
    return "fen"


def on_board(atom):
    return 0 <= atom.x <= 8 and 0 <= atom.y <= 9


def state_of(atoms):
    men, annotations = [], []
    for atom in atoms:
        if not on_board(atom):
            continue
        square = f"{chr(ord('a') + atom.x)}{atom.y}"
        if isinstance(atom, PutAnnotation):
            annotations.append(f"{CODE_OF_NAME[atom.annotation_name]}@{square}")
        else:
            letter = LETTER[atom.piece]
            men.append((letter if atom.party == RED else letter.lower()) + square)
    return {"men": sorted(men), "annotations": annotations}


def states_of(reader, content):
    quiet = contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO())
    with quiet[0], quiet[1]:
        if reader == "annofen":
            return [state_of(iterate_annofen_tokens(content))]
        if reader == "xay":
            return [state_of(iterate_xay_tokens(content))]
        if reader == "fen":
            return [state_of(iterate_fen_tokens(content))]
        match = _MOVES_EXTRACTOR.search(content)
        count = len(list(_SINGLE_MOVE_EXTRACTOR.finditer(match.group(1)))) if match else 0
        return [state_of(iterate_wxf_tokens(content, str(n), False)) for n in range(count + 1)]


def yaml_broken(content):
    try:
        yaml.safe_load(content)
        return False
    except yaml.YAMLError:
        return True


def main():
    for folder in ("samples", "cases"):
        out_dir = HERE / "expected" / folder
        out_dir.mkdir(parents=True, exist_ok=True)
        for path in sorted((HERE / folder).iterdir()):
            if path.suffix not in (".annofen", ".xay", ".fen", ".wxf"):
                continue
            content = path.read_text(encoding="utf-8")
            reader = reader_of(content)
            expected = {"reader": reader}
            if path.suffix == ".xay" and reader == "fen" and yaml_broken(content):
                expected["yaml_broken"] = True
            try:
                expected["states"] = states_of(reader, content)
            except Exception as error:  # xiangqi-setup rejects the file
                expected.pop("states", None)
                expected["error"] = f"{type(error).__name__}: {error}"
            (out_dir / f"{path.name}.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
            print(f"{folder}/{path.name}: {expected.get('error', len(expected.get('states', [])))}", file=sys.stderr)


if __name__ == "__main__":
    main()
