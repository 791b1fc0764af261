#!/usr/bin/env python3
"""Runs a built ppn-ls as a user would, on the platform it was built for: the release
workflow runs it on each hosted runner, and CI here on the Linux binaries (the aarch64 one
under qemu-aarch64-static).

    smoke_test.py --archive ppn-ls-<version>-<target>.tar.gz|.zip   [--runner CMD]
    smoke_test.py --binary PATH                                     [--runner CMD]

With --archive, the .sha256 beside it is checked and the archive unpacked as a user would
(the binary must come out executable); --runner runs the binary through an emulator.
Checks `--version`, `check` on examples/ (clean) and on a broken game (the error and exit
code 1), then a whole language-server exchange over stdio: initialize, initialized, didOpen,
the diagnostics published, hover, shutdown, exit (and the process ending with 0).

Standard library only, so that it runs on any runner's Python 3.11+.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import shlex
import stat
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Generous: a debug build under an emulator answers in seconds, not milliseconds.
TIMEOUT_SECONDS = 120

BROKEN_GAME = "---\nGameType: Tablut\n...\n1. a4-a3 1... c5-c3 ]\n"


class SmokeTestFailure(Exception):
    pass


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeTestFailure(message)


def crate_version() -> str:
    with (ROOT / "Cargo.toml").open("rb") as file:
        return tomllib.load(file)["workspace"]["package"]["version"]


def verify_checksum(archive: Path) -> None:
    checksum_file = archive.with_name(archive.name + ".sha256")
    check(checksum_file.is_file(), f"no {checksum_file.name} beside the archive")
    expected, name = checksum_file.read_text().split()
    check(name == archive.name, f"{checksum_file.name} names {name}, not {archive.name}")
    actual = hashlib.sha256(archive.read_bytes()).hexdigest()
    check(actual == expected, f"{archive.name}: sha256 {actual}, but {checksum_file.name} says {expected}")


def unpack(archive: Path, into: Path) -> Path:
    """The archive unpacked into `into`; the path of its ppn-ls."""
    stem = archive.name.removesuffix(".tar.gz").removesuffix(".zip")
    windows = archive.name.endswith(".zip")
    if windows:
        with zipfile.ZipFile(archive) as packed:
            packed.extractall(into)
            for info in packed.infolist():
                mode = info.external_attr >> 16
                if mode and os.name != "nt":
                    os.chmod(into / info.filename, stat.S_IMODE(mode))
    else:
        with tarfile.open(archive) as packed:
            # The "tar" filter (modes kept, no paths outside `into`) where this Python has it
            # (3.11.4 and later; Debian 12's 3.11.2 may not).
            options = {"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}
            packed.extractall(into, **options)
    binary = into / stem / ("ppn-ls.exe" if windows else "ppn-ls")
    check(binary.is_file(), f"{archive.name} has no {stem}/{binary.name}")
    if os.name != "nt":
        check(os.access(binary, os.X_OK), f"{binary.name} comes out of {archive.name} not executable")
    for document in ("README.md", "LICENSE"):
        check((into / stem / document).is_file(), f"{archive.name} has no {stem}/{document}")
    return binary


NOTATION_EXTENSIONS = {".ppn", ".otg", ".otn", ".annofen", ".xay", ".fen", ".wxf"}


def clean_examples_summary() -> str:
    """What `ppn-ls check examples/` ends with when every example is clean."""
    count = sum(1 for path in (ROOT / "examples").iterdir() if path.suffix in NOTATION_EXTENSIONS)
    return f"0 errors, 0 warnings in {count} files"


def run_command(command: list[str], **options) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, **options)


def command_line_checks(server: list[str], workspace: Path) -> None:
    version = run_command([*server, "--version"])
    check(version.returncode == 0, f"--version exited {version.returncode}: {version.stderr}")
    check(
        version.stdout.strip() == f"ppn-ls {crate_version()}",
        f"--version printed {version.stdout.strip()!r}, not 'ppn-ls {crate_version()}'",
    )
    print(f"ok: --version: {version.stdout.strip()}")

    clean = run_command([*server, "check", str(ROOT / "examples")])
    check(clean.returncode == 0, f"check examples/ exited {clean.returncode}:\n{clean.stdout}{clean.stderr}")
    check(
        clean_examples_summary() in clean.stdout,
        f"check examples/ printed {clean.stdout!r}",
    )
    print(f"ok: check examples/: {clean.stdout.strip()}")

    broken = workspace / "broken.ppn"
    broken.write_text(BROKEN_GAME, newline="\n")
    failed = run_command([*server, "check", "--color", "never", str(broken)])
    check(failed.returncode == 1, f"check broken.ppn exited {failed.returncode}, not 1:\n{failed.stdout}{failed.stderr}")
    check(
        "broken.ppn:4:21: error[unexpected-token]" in failed.stdout,
        f"check broken.ppn did not report the stray `]` at 4:21:\n{failed.stdout}",
    )
    print("ok: check broken.ppn: error[unexpected-token] at 4:21, exit code 1")


class LanguageServer:
    """A client speaking LSP to the server over its standard input and output."""

    def __init__(self, server: list[str], cwd: Path):
        self.process = subprocess.Popen(
            server, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.messages: queue.Queue[dict | None] = queue.Queue()
        self.stderr: list[bytes] = []
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if length is None:
                self.messages.put({"malformed": "a header without Content-Length"})
                return
            body = stream.read(length)
            if len(body) < length:
                self.messages.put(None)  # the server ended in the middle of a message
                return
            self.messages.put(json.loads(body))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict | None) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict | None) -> dict:
        request_id = self.next_id
        self.next_id += 1
        self.send({"id": request_id, "method": method, "params": params})
        answer = self.wait_for(lambda message: message.get("id") == request_id and "method" not in message, method)
        check("error" not in answer, f"{method} answered an error: {answer.get('error')}")
        return answer.get("result")

    def wait_for(self, wanted, what: str) -> dict:
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while True:
            remaining = deadline - time.monotonic()
            try:
                message = self.messages.get(timeout=max(remaining, 0.01))
            except queue.Empty:
                raise SmokeTestFailure(f"no {what} within {TIMEOUT_SECONDS} s") from None
            if message is None:
                raise SmokeTestFailure(f"the server closed its output before {what}: {self.stderr_text()}")
            check("malformed" not in message, message.get("malformed", ""))
            if "method" in message and "id" in message:
                self._answer_server_request(message)
                continue
            if wanted(message):
                return message

    def _answer_server_request(self, message: dict) -> None:
        # Requests the server may make of its client (configuration, registrations,
        # progress): answered as a client without those features would.
        if message["method"] == "workspace/configuration":
            result = [None for _ in message["params"]["items"]]
        else:
            result = None
        self.send({"id": message["id"], "result": result})

    def stderr_text(self) -> str:
        return b"".join(self.stderr).decode(errors="replace")


def language_server_checks(server: list[str], workspace: Path) -> None:
    client = LanguageServer(server, workspace)
    try:
        initialized = client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": workspace.as_uri(),
                "capabilities": {
                    "textDocument": {
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                        "publishDiagnostics": {},
                    }
                },
            },
        )
        capabilities = initialized["capabilities"]
        check(bool(capabilities.get("hoverProvider")), f"initialize: no hoverProvider in {capabilities}")
        check(
            initialized.get("serverInfo", {}).get("name") == "ppn-ls",
            f"initialize: serverInfo is {initialized.get('serverInfo')}",
        )
        client.notify("initialized", {})
        print(f"ok: initialize: {initialized['serverInfo']}")

        broken_uri = (workspace / "broken.ppn").as_uri()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": broken_uri, "languageId": "ppn", "version": 1, "text": BROKEN_GAME}},
        )
        published = client.wait_for(
            lambda message: message.get("method") == "textDocument/publishDiagnostics"
            and message["params"]["uri"] == broken_uri,
            "diagnostics for broken.ppn",
        )
        diagnostics = published["params"]["diagnostics"]
        stray = [diagnostic for diagnostic in diagnostics if diagnostic.get("code") == "unexpected-token"]
        check(len(stray) == 1, f"broken.ppn: diagnostics {diagnostics}, not one unexpected-token")
        check(
            stray[0]["range"]["start"] == {"line": 3, "character": 20},
            f"the stray `]` is reported at {stray[0]['range']}, not at line 3, character 20",
        )
        print(f"ok: didOpen broken.ppn -> publishDiagnostics: {stray[0]['message']}")

        game_path = ROOT / "examples" / "tablut-short.ppn"
        game = game_path.read_text()
        game_uri = (workspace / game_path.name).as_uri()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": game_uri, "languageId": "ppn", "version": 1, "text": game}},
        )
        line_number, line = next((number, text) for number, text in enumerate(game.splitlines()) if text.startswith("1. a4-a3"))
        hover = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": game_uri}, "position": {"line": line_number, "character": line.index("a4-a3") + 1}},
        )
        check(hover is not None, "hover over a4 of 1. a4-a3 answered nothing")
        contents = hover["contents"]
        text = contents["value"] if isinstance(contents, dict) else json.dumps(contents)
        # The piece the square names, and the board before the move with its files.
        check(
            "names 1 piece here" in text and "Board before 1." in text and "a b c d e f g h i" in text,
            f"hover over a4 of 1. a4-a3 shows no piece and board:\n{text}",
        )
        print("ok: hover over a4 of 1. a4-a3: the piece there and the board before the move")

        check(client.request("shutdown", None) is None, "shutdown answered something else than null")
        client.notify("exit", None)
        try:
            code = client.process.wait(timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            raise SmokeTestFailure("the server did not end after exit") from None
        check(code == 0, f"the server ended with {code} after shutdown and exit: {client.stderr_text()}")
        print("ok: shutdown, exit: the server ended with 0")
    finally:
        if client.process.poll() is None:
            client.process.kill()
            client.process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--archive", type=Path, help="a release archive (its .sha256 beside it)")
    given.add_argument("--binary", type=Path, help="a ppn-ls executable")
    parser.add_argument("--runner", default="", help="a command to run the binary with, e.g. qemu-aarch64-static")
    arguments = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ppn-ls-smoke-") as temporary:
        workspace = Path(temporary) / "workspace"
        workspace.mkdir()
        try:
            if arguments.archive:
                verify_checksum(arguments.archive)
                print(f"ok: {arguments.archive.name}: sha256 matches")
                binary = unpack(arguments.archive, Path(temporary) / "unpacked")
                print(f"ok: {arguments.archive.name} unpacks to {binary.parent.name}/{binary.name}, executable")
            else:
                binary = arguments.binary.resolve()
            server = [*shlex.split(arguments.runner), str(binary)]
            command_line_checks(server, workspace)
            language_server_checks(server, workspace)
        except SmokeTestFailure as failure:
            print(f"FAILED: smoke test of {arguments.archive or arguments.binary}: {failure}", file=sys.stderr)
            return 1
    print(f"smoke test passed: {arguments.archive or arguments.binary} ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
