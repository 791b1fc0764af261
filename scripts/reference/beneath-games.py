"""PPN games of `_` and `‿` moves (a piece moved beneath another) whose target is a `%?`
query, a `%` Location or a `$` reference, for checking ppn-ls against the reference.

    python3 beneath-games.py MODE SEED COUNT OUTDIR

MODE `free`: drops on an empty board, a Lines of Action board (piecepack or checkers), then
`_` / `‿` / `-` moves with every kind of target. MODE `stack`: a stack dropped on one
square of a Lines of Action board, then moves from it to a queried piece (`m3‿%?>f`).
MODE `after-generated`: the start of each of ../../tests/conformance's generated games
(from ../shared/conformance/generated, passed as GENERATED), then such a stack and move.

Then `python3 prune-refused.py OUTDIR` exports each file's states with the reference and
drops the moves it refuses, so that every game left is one the reference reads.
"""
import glob
import os
import random
import sys

mode, seed, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
random.seed(seed)
os.makedirs(out, exist_ok=True)
kinds = ["t", "c", "p", "d"]
suits = ["S", "M", "C", "A"]
sides = ["f", "b"]
angles = ["", "^", ">", "v", "<"]
cfgs = ["", ",subpack'", ",piecepack'"]
board = [f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)]
lines_of_action = [
    "GameType: Lines of Action\n",
    "GameType:\n  Name: Lines of Action\n  System: checker\n",
]


def piece():
    return dict(kind=random.choice(kinds), suit=random.choice(suits), side=random.choice(sides),
                angle=random.choice(angles), cfg=random.choice(cfgs))


def spec(p):
    return f"{p['kind']}{p['suit']}{p['side']}{p['angle']}{p['cfg']}"


def query(pieces):
    if not pieces or random.random() < 0.2:
        return "?" + random.choice(["b", "f", ">f", "^b", "<", "bc", "t", "c", "Sf", "tb", "bC"])
    p = random.choice(pieces)
    form = random.randrange(6)
    if form == 0:
        q = p["side"] + p["angle"]
    elif form == 1:
        q = p["angle"] or p["side"]
    elif form == 2:
        q = p["side"] + (p["cfg"] or ",piecepack'")
    elif form == 3:
        q = p["kind"] + p["side"]
    elif form == 4:
        q = p["suit"] + p["side"] + p["angle"]
    else:
        q = p["kind"] + p["suit"] + p["cfg"]
    return "?" + q


def free_game():
    header, cells = random.choice([("", [f"{f}{r}" for f in "cdefm" for r in range(2, 6)])]
                                  + [(h, board + ["m3", "j4"]) for h in lines_of_action])
    hot = random.sample(cells, 3)
    pieces, moves = [], []
    for _ in range(random.randint(1, 5)):
        p = piece()
        pieces.append(p)
        moves.append(f"{spec(p)}@{random.choice(hot)}")
    for _ in range(random.randint(1, 4)):
        op = random.choice(["_", "‿", "‿", "-"])
        source = random.choice(hot + [random.choice(cells)])
        r = random.random()
        if r < 0.3:
            moves.append(f"{source}{op}%{query(pieces)}")
        elif r < 0.55:
            moves.append(f"{source}{op}{random.choice(hot)}%{query(pieces)}")
        elif r < 0.65:
            moves.append(f"{source}{op}{random.choice(hot)}%{random.choice(hot)}")
        elif r < 0.75:
            moves.append(f"{source}{op}%{random.choice(hot)}")
        elif r < 0.85:
            moves.append(f"{source}{op}{random.choice(['1E', '2N', '1S', '1W'])}${query(pieces)}")
        elif r < 0.92:
            moves.append(f"{query(pieces)}{op}%{query(pieces)}")
        else:
            p = piece()
            pieces.append(p)
            moves.append(f"{spec(p)}@{random.choice(hot)}")
    return header, moves


STACK_QUERIES = ["?>f", "?>b", "?f", "?b", "?^f", "?<b", "?tb", "?tf", "?cf", "?Sf", "?>", "?v",
                 "?^", "?b,piecepack'", "?f,checkers1'", "?b,checkers1'", "?Cb", "?pb", "?tS"]


def stack_moves(square):
    moves = [f"{random.choice(kinds + ['t', 't'])}{random.choice(suits + [''])}"
             f"{random.choice(sides)}{random.choice(angles)}@{square}"
             for _ in range(random.randint(1, 5))]
    for _ in range(random.randint(1, 3)):
        moves.append(f"{square}{random.choice(['‿', '_', '‿', '-'])}%{random.choice(STACK_QUERIES)}")
    return moves


def numbered(moves, first=1):
    return " ".join(f"{first + i}. {m}" for i, m in enumerate(moves))


if mode == "free":
    for k in range(count):
        header, moves = free_game()
        open(f"{out}/free{seed}_{k:03}.ppn", "w").write(f"---\n{header}...\n{numbered(moves)}\n")
elif mode == "stack":
    for k in range(count):
        header = random.choice(lines_of_action + ["SetUp:\n  Name: lines of action\n  System: checker\n"])
        moves = stack_moves(random.choice(["m3", "m3", "j5", "d4", "e5", "a1", "c1"]))
        open(f"{out}/stack{seed}_{k:03}.ppn", "w").write(f"---\n{header}...\n{numbered(moves)}\n")
elif mode == "after-generated":
    generated = os.environ["GENERATED"]
    for path in sorted(glob.glob(f"{generated}/*.ppn")):
        text = open(path).read()
        if "\n...\n" not in text:
            continue
        head, body = text.split("\n...\n", 1)
        if "\n---" in body:
            continue
        words = body.split()
        for k in range(count):
            cut = random.randint(3, min(len(words), 80))
            name = os.path.basename(path)[:-4]
            tail = numbered(stack_moves("m3"), first=900)
            open(f"{out}/{name}_{seed}_{k}.ppn", "w").write(f"{head}\n...\n{' '.join(words[:cut])} {tail}\n")
else:
    sys.exit(f"unknown mode {mode}: free, stack or after-generated")
