#!/usr/bin/env python3
"""End-to-end test: the real Helix, set up as editors/helix/README.md says, driven through
a private tmux server (keys in with `send-keys`, the screen out with `capture-pane`).

Run by tests/e2e/run-helix.sh: helix_test.py HELIX_DIR PPN_LS, where HELIX_DIR holds `hx`
and its `runtime/` (and `grammar-sources/tree-sitter-yaml` for `.xay`), and PPN_LS is the
server binary. Prints one line per check and "N passed, M failed"; exits 1 on a failure,
leaving the screens it failed on in the scratch folder it names.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HELIX_DIR = Path(sys.argv[1])
PPN_LS = Path(sys.argv[2])
SCRATCH = Path(tempfile.mkdtemp(prefix="ppn-helix-test-"))
CONFIG = SCRATCH / "config" / "helix"
WORK = SCRATCH / "work"
OPENED = SCRATCH / "opened.svg"
TMUX = ["tmux", "-L", f"ppn-helix-test-{os.getpid()}", "-f", "/dev/null"]
WIDTH, HEIGHT = 120, 40
# Helix draws a line's text after the diagnostics gutter, the line number and a space.
TEXT_COLUMN = 7

passed = 0
failed = 0


def say(line):
    print(line, flush=True)


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        say(f"ok   {name}")
    else:
        failed += 1
        say(f"FAIL {name}" + (f": {detail}" if detail else ""))
        screen_file = SCRATCH / f"failed-{failed}.txt"
        screen_file.write_text(capture(colours=True) if helix_running() else "(Helix is not running)\n")
        say(f"     screen saved in {screen_file}")
    return ok


def environment():
    env = dict(os.environ)
    env.update(
        XDG_CONFIG_HOME=str(SCRATCH / "config"),
        XDG_CACHE_HOME=str(SCRATCH / "cache"),
        XDG_DATA_HOME=str(SCRATCH / "data"),
        HELIX_RUNTIME=str(HELIX_DIR / "runtime"),
        COLORTERM="truecolor",
        PATH=f"{PPN_LS.parent}{os.pathsep}{SCRATCH / 'bin'}{os.pathsep}{os.environ['PATH']}",
    )
    return env


def hx(*args):
    return subprocess.run(
        [str(HELIX_DIR / "hx"), *args], env=environment(), capture_output=True, text=True, timeout=120
    )


def strip_ansi(text):
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


# --- Set-up, as the README says ---------------------------------------------------------


def set_up():
    """Steps 2 to 4 of editors/helix/README.md in a scratch configuration, the board keys
    and inlay hints; returns whether the grammars were built."""
    (SCRATCH / "bin").mkdir()
    WORK.mkdir()
    languages = (ROOT / "editors/helix/languages.toml").read_text()
    languages = languages.replace("/path/to/ppn-ls", str(ROOT))
    check("languages.toml names no placeholder", "example.invalid" not in languages and "REPLACE" not in languages)
    # Only for this scratch set-up: build no grammar but these (Helix's own were never
    # fetched here), and take the YAML grammar Helix would fetch from the Helix folder.
    header = 'use-grammars = { only = ["ppn", "otn", "xiangqi", "yaml"] }\n'
    yaml = HELIX_DIR / "grammar-sources" / "tree-sitter-yaml"
    if yaml.is_dir():
        languages += f'\n[[grammar]]\nname = "yaml"\nsource = {{ path = "{yaml}" }}\n'
    CONFIG.mkdir(parents=True)
    (CONFIG / "languages.toml").write_text(header + languages)
    (CONFIG / "runtime" / "grammars").mkdir(parents=True)
    build = hx("--grammar", "build")
    built = {path.stem for path in (CONFIG / "runtime" / "grammars").glob("*.so")}
    check(
        "hx --grammar build builds the ppn, otn and xiangqi grammars from the clone",
        {"ppn", "otn", "xiangqi"} <= built,
        f"built {sorted(built)}; {build.stdout[-2000:]} {build.stderr[-2000:]}",
    )
    shutil.copytree(ROOT / "editors/helix/runtime/queries", CONFIG / "runtime" / "queries")
    config = (ROOT / "editors/helix/board-keys.toml").read_text()
    config += "\n[editor.lsp]\ndisplay-inlay-hints = true\n"
    (CONFIG / "config.toml").write_text(config)
    # The picture key opens the SVG with xdg-open: this one copies it where the test looks.
    opener = SCRATCH / "bin" / "xdg-open"
    opener.write_text(f'#!/bin/sh\ncp "$1" {shlex.quote(str(OPENED))}\n')
    opener.chmod(0o755)
    return yaml.is_dir()


def check_health(with_yaml):
    for language in ["ppn", "otn", "annofen", "xiangqi-fen", "wxf", "xay"]:
        if language == "xay" and not with_yaml:
            say("skip hx --health xay: no tree-sitter-yaml sources in the Helix folder")
            continue
        report = strip_ansi(hx("--health", language).stdout)
        wanted = ["Tree-sitter parser: ✓", "Highlight queries: ✓", f"✓ ppn-ls: {PPN_LS}"]
        if language == "ppn":
            wanted.append("Textobject queries: ✓")
        missing = [line for line in wanted if line not in report]
        check(f"hx --health {language}: server, parser and queries found", not missing, f"{missing} in {report}")


# --- Driving Helix in tmux -------------------------------------------------------------


def tmux(*args, check_result=True):
    return subprocess.run(TMUX + list(args), capture_output=True, text=True, check=check_result)


def helix_running():
    return tmux("has-session", "-t", "hx", check_result=False).returncode == 0


def start_helix(path):
    env = environment()
    exported = " ".join(
        f"{name}={shlex.quote(env[name])}"
        for name in ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "HELIX_RUNTIME", "COLORTERM", "PATH"]
    )
    command = f"env {exported} {shlex.quote(str(HELIX_DIR / 'hx'))} --log {shlex.quote(str(SCRATCH / 'hx.log'))} -v {shlex.quote(path)}"
    tmux("new-session", "-d", "-s", "hx", "-x", str(WIDTH), "-y", str(HEIGHT), "-c", str(WORK), command)


def keys(*names):
    tmux("send-keys", "-t", "hx", *names)


def type_text(text):
    tmux("send-keys", "-t", "hx", "-l", text)


def escape():
    # An Escape with the next key right behind it reads as Alt and that key.
    keys("Escape")
    time.sleep(0.3)


def capture(colours=False):
    return tmux("capture-pane", "-p", "-t", "hx", *(["-e"] if colours else [])).stdout


def rows():
    """The screen's rows, HEIGHT of them (the last is the message line)."""
    screen = capture().split("\n")[:HEIGHT]
    return screen + [""] * (HEIGHT - len(screen))


def wait_for(predicate, timeout=15.0):
    """Polls the screen until predicate(rows) is true; returns the rows last seen, or None."""
    deadline = time.monotonic() + timeout
    while True:
        screen = rows()
        if predicate(screen):
            return screen
        if time.monotonic() > deadline:
            return None
        time.sleep(0.1)


def screen_has(pattern, timeout=15.0):
    return wait_for(lambda screen: re.search(pattern, "\n".join(screen), re.M) is not None, timeout)


def status_line(screen):
    return screen[HEIGHT - 2]


def line_text(screen, number):
    """The text Helix shows for a line of the file (with inline diagnostics and hints)."""
    row = screen[number - 1]
    if len(row) < TEXT_COLUMN - 2 or row[1:TEXT_COLUMN - 2].strip() != str(number):
        return None
    return row[TEXT_COLUMN:]


def wait_line(number, predicate, timeout=15.0):
    screen = wait_for(lambda screen: (line_text(screen, number) or "") and predicate(line_text(screen, number)), timeout)
    return line_text(screen if screen else rows(), number) or ""


def command(text):
    keys(":")
    type_text(text)
    keys("Enter")


echo_count = 0


def echo(expression):
    """The value of an expression of Helix's variables, shown with :echo in the message line."""
    global echo_count
    echo_count += 1
    marker = f"@{echo_count}@"
    command(f'echo "{marker} {expression}"')
    # The message line shows the command as it is typed, then its answer.
    screen = wait_for(lambda screen: marker in screen[-1] and not screen[-1].startswith(":"), 5)
    return screen[-1].split(marker, 1)[1].strip() if screen else "(no answer to :echo)"


def where():
    """(line, column, first line, last line) of the cursor and the selection."""
    answer = echo("%{cursor_line} %{cursor_column} %{selection_line_start} %{selection_line_end}")
    numbers = re.findall(r"\d+", answer)
    return tuple(int(n) for n in numbers) if len(numbers) == 4 else answer


def selected():
    return echo("[%{selection}]")


def search(pattern):
    """Selects the next match of a regular expression (from the top of the file)."""
    keys("g", "g")
    keys("/")
    type_text(pattern)
    keys("Enter")
    time.sleep(0.2)


def go_to_line(number):
    keys(*str(number), "g", "g")
    time.sleep(0.1)


def diagnostics_count(screen):
    """The count Helix's status line shows after ● (errors and warnings), or 0."""
    counts = re.findall(r"●\s*(\d+)", status_line(screen))
    return sum(int(count) for count in counts)


def colours_of(row_number):
    """The characters of a screen row, each with its foreground colour (None: the default)."""
    row = capture(colours=True).split("\n")[row_number - 1]
    cells = []
    colour = None
    for part in re.split(r"(\x1b\[[0-9;]*m)", row):
        match = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
        if not match:
            cells.extend((char, colour) for char in part)
            continue
        params = [int(p) if p else 0 for p in match.group(1).split(";")]
        i = 0
        while i < len(params):
            p = params[i]
            if p == 0 or p == 39:
                colour = None
            elif p in (38, 48):
                width = 4 if i + 1 < len(params) and params[i + 1] == 2 else 2
                if p == 38:
                    colour = tuple(params[i + 1 : i + 1 + width])
                i += width
            elif 30 <= p <= 37 or 90 <= p <= 97:
                colour = (p,)
            i += 1
    return cells


def colour_at(cells, text):
    """The colour of the first character of text in a row of cells."""
    plain = "".join(char for char, _ in cells)
    at = plain.find(text)
    return cells[at][1] if at >= 0 else "absent"


FILE_LETTERS_9 = r"a\s+b\s+c\s+d\s+e\s+f\s+g\s+h\s+i"

PPN_FILE = "tablut game.ppn"
PPN_TEXT = """---
GameType: Tablut
Macros: {opening: a4-a3}
...
1. `opening' 1... c5-c3 { a comment }
2. e4*e3
---
GameType: Tablut
...
1. a4-a3 1... c5-c3
2. d1-d3
"""


def test_ppn():
    start_helix(PPN_FILE)
    # Diagnostics, inline at the end of their line and counted in the status line.
    line6 = wait_line(6, lambda text: "is a capture as the first PPN drafts wrote it" in text)
    check("a diagnostic is shown on its line (old-capture)", "is a capture" in line6, line6)
    check("the status line counts one diagnostic", diagnostics_count(rows()) == 1, status_line(rows()))

    # Highlighting: the grammar, the queries and the YAML injection.
    five = colours_of(5)
    number, location, comment = colour_at(five, "1."), colour_at(five, "c5-c3"), colour_at(five, "{ a")
    check(
        "a MoveNumber, a Location and a comment each have their colour",
        len({number, location, comment}) == 3 and "absent" not in (number, location, comment),
        f"{number} {location} {comment}",
    )
    two = colours_of(2)
    check(
        "metadata is highlighted as YAML (a key and its value differ)",
        colour_at(two, "GameType") != colour_at(two, "Tablut"),
        f"{colour_at(two, 'GameType')} {colour_at(two, 'Tablut')}",
    )
    check("the --- line is coloured", colour_at(colours_of(1), "---") not in (None, "absent"))

    # An inlay hint: the macro's value after its use.
    line5 = wait_line(5, lambda text: "= a4-a3" in text, 10)
    check("an inlay hint shows the macro's value", re.search(r"`opening'\s*=\s*a4-a3", line5) is not None, line5)

    # Hover on a move: its label and the board after it.
    search("c5-c3")
    keys("Space", "k")
    hover = screen_has(FILE_LETTERS_9)
    shown = "\n".join(hover or rows())
    check("Space k on a move shows the move and a board", hover is not None and "1..." in shown, shown)
    escape()

    # Completion of a macro's name after a backtick (which auto-pairs close).
    go_to_line(6)
    keys("A")
    type_text(" 2... `op")
    menu = screen_has(r"opening\s+constant", 10)
    check("typing `op offers the macro `opening'", menu is not None, "\n".join(rows()))
    check("the backtick was closed with a quote", (line_text(rows(), 6) or "").startswith("2. e4*e3 2... `op'"))
    keys("Tab")
    time.sleep(0.2)
    keys("Enter")
    escape()
    line6 = wait_line(6, lambda text: "`opening'" in text, 5)
    check("the completion is inserted", line6.startswith("2. e4*e3 2... `opening'"), line6)
    # Typing and the completion are undone a step at a time.
    for _ in range(3):
        keys("u")
        line6 = wait_line(6, lambda text: "2..." not in text, 2)
        if "2..." not in line6:
            break
    check("undo takes it out again", line6.startswith("2. e4*e3") and "2..." not in line6, line6)

    # Go to definition and references of a macro.
    search("`opening")
    keys("g", "d")
    time.sleep(0.5)
    position = where()
    check("gd on a macro goes to its definition", position[:2] == (3, 10), position)
    selection = selected()
    check("gd selects the macro's name", selection == "[opening]", selection)
    keys("g", "r")
    references = screen_has(r"2/2")
    shown = "\n".join(references or rows())
    check("gr lists the macro's definition and its use", references is not None and f"{PPN_FILE}:3" in shown and f"{PPN_FILE}:5" in shown, shown)
    escape()

    # Symbols: the games and their moves.
    keys("Space", "s")
    symbols = screen_has(r"Game 2: Tablut")
    shown = "\n".join(symbols or rows())
    check("Space s lists the games", symbols is not None and "Game 1: Tablut" in shown, shown)
    escape()

    # Text objects and motions over games, moves and comments.
    keys("g", "g")
    keys("]", "t")
    position = where()
    check("]t goes to the last game", position[2:] == (7, 11), position)
    go_to_line(11)
    keys("m", "a", "t")
    position = where()
    check("mat in the last game selects it", position[2:] == (7, 11), position)
    escape()
    go_to_line(11)
    keys("m", "i", "t")
    position = where()
    check("mit in the last game selects its movetext", position[2:] == (9, 11), position)
    escape()
    go_to_line(10)
    keys("[", "t")
    position = where()
    check("[t goes back to the first game", position[2:] == (1, 6), position)
    escape()
    go_to_line(1)
    keys("m", "a", "t")
    position = where()
    check("mat in the first game selects it", position[2:] == (1, 6), position)
    escape()
    search("d1-d3")
    keys("m", "a", "f")
    selection = selected()
    check("maf selects a move", selection == "[d1-d3]", selection)
    keys("g", "g")
    keys("]", "f")
    selection = selected()
    check("]f goes to the first move", selection == "[`opening']", selection)
    keys("]", "f")
    selection = selected()
    check("]f goes to the next move", selection == "[c5-c3]", selection)
    keys("[", "f")
    selection = selected()
    check("[f goes back a move", selection == "[`opening']", selection)
    keys("g", "g")
    keys("]", "c")
    selection = selected()
    check("]c goes to the comment", selection == "[{ a comment }]", selection)
    keys("g", "e")
    keys("[", "c")
    selection = selected()
    check("[c goes back to the comment", selection == "[{ a comment }]", selection)
    escape()

    # Comments: Ctrl-c around the lines, Space C around the selection.
    search("d1-d3")
    keys("C-c")
    line11 = wait_line(11, lambda text: text.startswith("{"), 5)
    check("Ctrl-c puts the line in a comment", line11.startswith("{ 2. d1-d3 }"), line11)
    keys("u")
    wait_line(11, lambda text: text.startswith("2."), 5)
    search("d1-d3")
    keys("Space", "C")
    line11 = wait_line(11, lambda text: "{" in text, 5)
    check("Space C puts the selection in a comment", line11.startswith("2. { d1-d3 }"), line11)
    keys("u")
    line11 = wait_line(11, lambda text: text.startswith("2. d1-d3"), 5)
    check("undo", line11.startswith("2. d1-d3"), line11)
    escape()

    # The board keys, on a file whose name holds a space.
    search("c5-c3")
    keys("n")
    keys("Space", "v")
    board = screen_has(FILE_LETTERS_9, 15)
    shown = "\n".join(board or rows())
    check("Space v shows the board after the move under the cursor", board is not None and "1... c5-c3" in shown, shown)
    escape()
    keys("Space", "V")
    opened = time.monotonic() + 15
    while time.monotonic() < opened and not OPENED.exists():
        time.sleep(0.1)
    picture = OPENED.read_text() if OPENED.exists() else ""
    check("Space V opens the picture of that board", picture.lstrip().startswith("<svg") or "<svg" in picture[:300], picture[:200])
    escape()

    # The board keys leave Helix's own alone: Space b is still its buffer picker.
    keys("Space", "b")
    picker = screen_has(r"1/1")
    check("Space b still opens Helix's buffer picker", picker is not None and PPN_FILE in "\n".join(picker), "\n".join(rows()))
    escape()

    # The quick fix of the diagnostic: the code action applied, the diagnostic gone.
    search(r"e4\*e3")
    keys("Space", "a")
    action = screen_has(r"write `e4:e3`")
    check("Space a offers the fix", action is not None, "\n".join(rows()))
    keys("Enter")
    line6 = wait_line(6, lambda text: text.startswith("2. e4:e3"), 10)
    check("the fix rewrites the move", line6.startswith("2. e4:e3"), line6)
    cleared = wait_for(lambda screen: diagnostics_count(screen) == 0, 10)
    check("and the diagnostic is gone", cleared is not None, status_line(rows()))
    command("write")
    written = wait_for(lambda screen: "written" in screen[-1], 10)
    check(":write saves the fixed file", written is not None and "2. e4:e3" in (WORK / PPN_FILE).read_text())


OTG_TEXT = """[rules:dim:7 ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]

1. g4-g3 d5-f5
2. g3-e3 f5-f6
3. b4-b3 f6-f5
4. b3-c3 f5-f6
"""

WXF_TEXT = """FORMAT  WXF
START{
 1. H2+3 h8+7
 2. H3+4 r9.8
}END
"""


def test_opentafl():
    command("open record.otg")
    line6 = wait_line(6, lambda text: "captures" in text)
    check("OpenTafl: the capture the record leaves out is flagged", "captures" in line6 and "d3" in line6, line6)
    one = colours_of(1)
    three = colours_of(3)
    check(
        "OpenTafl: tags, turn numbers and squares are highlighted",
        colour_at(one, "rules") != colour_at(one, "dim")
        and colour_at(three, "1.") != colour_at(three, "g4")
        and "absent" not in (colour_at(three, "1."), colour_at(three, "g4")),
    )
    search("b3-c3")
    keys("Space", "k")
    hover = screen_has(r"a\s+b\s+c\s+d\s+e\s+f\s+g\b")
    check("OpenTafl: Space k on a move shows a board", hover is not None, "\n".join(rows()))
    escape()
    search("b3-c3")
    keys("Space", "a")
    action = screen_has(r"xd3")
    check("OpenTafl: Space a offers to write the capture", action is not None, "\n".join(rows()))
    keys("Enter")
    line6 = wait_line(6, lambda text: text.startswith("4. b3-c3xd3"), 10)
    check("OpenTafl: the fix writes it", line6.startswith("4. b3-c3xd3"), line6)
    cleared = wait_for(lambda screen: "captures" not in (line_text(screen, 6) or ""), 10)
    check("OpenTafl: and the diagnostic is gone", cleared is not None, line_text(rows(), 6))


def test_wxf():
    command("open record.wxf")
    line4 = wait_line(4, lambda text: "leg is blocked" in text)
    check("WXF: the illegal horse move is flagged", "leg is blocked" in line4, line4)
    three = colours_of(3)
    check(
        "WXF: move numbers and moves are highlighted",
        colour_at(three, "1.") != colour_at(three, "H2+3") and "absent" not in (colour_at(three, "1."), colour_at(three, "H2+3")),
    )


def main():
    say(f"scratch folder: {SCRATCH}")
    with_yaml = set_up()
    check_health(with_yaml)
    (WORK / PPN_FILE).write_text(PPN_TEXT)
    (WORK / "record.otg").write_text(OTG_TEXT)
    (WORK / "record.wxf").write_text(WXF_TEXT)
    try:
        test_ppn()
        test_opentafl()
        test_wxf()
        command("quit-all!")
        quitting = time.monotonic() + 5
        while helix_running() and time.monotonic() < quitting:
            time.sleep(0.1)
    finally:
        tmux("kill-server", check_result=False)
    log = (SCRATCH / "hx.log").read_text() if (SCRATCH / "hx.log").exists() else ""
    # Helix quits by sending `shutdown` and `exit` without waiting for the answer, and logs
    # the closed pipe that follows as errors: only the log before that counts.
    log = log.split('"method":"shutdown"', 1)[0]
    problems = [line for line in log.splitlines() if "Failed to compile" in line or "[ERROR]" in line]
    check("Helix's log holds no query or server error", not problems, "\n".join(problems[:5]))
    say(f"{passed} passed, {failed} failed")
    if failed == 0:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
