"""Small PPN games full of `?` query PieceIds, for checking ppn-ls against the reference:
`python3 query-games.py SEED COUNT` writes COUNT games to `s/`; run
`export-states.R` on each and keep those the reference reads without error.
"""
import random, os, sys
seed = int(sys.argv[1]); n = int(sys.argv[2])
random.seed(seed)
os.makedirs("s", exist_ok=True)
kinds = ["t", "c", "p", "d"]
suits = ["S", "M", "C", "A"]
sides = ["f", "b"]
angles = ["", "^", ">", "v", "<"]
cfgs = ["", ",subpack'", ",piecepack'"]
cells = [f"{f}{r}" for f in "abcde" for r in range(1, 6)]
for k in range(n):
    pieces = []
    moves = []
    for i in range(random.randint(3, 7)):
        p = dict(kind=random.choice(kinds), suit=random.choice(suits), side=random.choice(sides),
                 angle=random.choice(angles), cfg=random.choice(cfgs))
        pieces.append(p)
        moves.append(f"{p['kind']}{p['suit']}{p['side']}{p['angle']}{p['cfg']}@{random.choice(cells)}")
    def query():
        p = random.choice(pieces)
        form = random.randrange(6)
        if form == 0: q = p['side'] + p['angle']
        elif form == 1: q = p['angle'] or p['side']
        elif form == 2: q = p['side'] + (p['cfg'] or ",piecepack'")
        elif form == 3: q = p['kind'] + p['side'] + (p['cfg'] or ",piecepack'")
        elif form == 4: q = p['suit'] + p['side'] + p['angle'] + (p['cfg'] or ",piecepack'")
        else: q = p['kind'] + p['suit'] + p['cfg']
        return "?" + q
    for i in range(random.randint(2, 5)):
        r = random.random()
        if r < 0.5:
            p = dict(kind=random.choice(kinds), suit=random.choice(suits), side=random.choice(sides),
                     angle=random.choice(angles), cfg=random.choice(cfgs))
            moves.append(f"{p['kind']}{p['suit']}{p['side']}{p['angle']}{p['cfg']}@{random.choice(cells)}%{query()}")
            pieces.append(p)
        elif r < 0.75:
            moves.append(f"{query()}-{random.choice(cells)}")
        elif r < 0.85:
            moves.append(f"{query()}-{random.choice(cells)}%{query()}")
        elif r < 0.9:
            moves.append(f"+{query()}")
        elif r < 0.95:
            moves.append(f"{query()}@>{random.choice(['90','-90','180'])}")
        else:
            moves.append(f"{query()}~{random.choice(['b','f','>','^',',subpack'+chr(39)])}")
    body = " ".join(f"{i+1}. {m}" for i, m in enumerate(moves))
    open(f"s/s{seed}_{k}.ppn", "w").write(f"---\n...\n{body}\n")
