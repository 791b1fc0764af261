"""Exports the reference's states of every `.ppn` in a folder (export-states.R, beside this
script; R_LIBS must name the reference's installation) and, where the reference refuses a
move ("Couldn't process move `N.`"), drops that move, numbers the rest again and exports
again, up to five times. `python3 prune-refused.py FOLDER`."""
import glob
import json
import os
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

EXPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "export-states.R")


def export(path):
    states = subprocess.run(["Rscript", EXPORT, path], capture_output=True, text=True).stdout
    open(path[:-4] + ".json", "w").write(states)
    return states


def prune(path):
    for _ in range(5):
        try:
            games = json.loads(export(path))["games"]
        except ValueError:
            return "unreadable"
        errors = [game["error"] for game in games if "error" in game]
        if not errors:
            return "read"
        refused = re.search(r"Couldn't process move `(\d+)\.", errors[0])
        if not refused:
            return "refused whole"
        head, body = open(path).read().split("...\n", 1)
        moves = re.split(r"\s*\d+\.\s+", " " + body.strip())[1:]
        del moves[int(refused.group(1)) - 1]
        if not moves:
            os.remove(path)
            os.remove(path[:-4] + ".json")
            return "emptied"
        body = " ".join(f"{i + 1}. {m}" for i, m in enumerate(moves))
        open(path, "w").write(f"{head}...\n{body}\n")
    return "gave up"


with ThreadPoolExecutor(os.cpu_count()) as pool:
    print(Counter(pool.map(prune, sorted(glob.glob(f"{sys.argv[1]}/*.ppn")))))
