#!/usr/bin/env python3
"""Builds ppn-ls's release files: an archive per Rust target and a VS Code package per
platform, with a .sha256 beside each (see docs/releasing.md).

    release.py build [--targets T,...] [--profile P] [--dist DIR] [--no-vsix]
        Builds the targets (default: every target this script builds on Linux, see
        release/targets.toml) and writes into DIR (default: target/dist/ under the cargo
        target directory, $CARGO_TARGET_DIR honoured):
            ppn-ls-<version>-<rust target>.tar.gz   (.zip for Windows) and .sha256
            ppn-ls-<vscode target>-<version>.vsix   and .sha256
            ppn-ls-universal-<version>.vsix         (when its script is there)
        --profile smoke builds the same code unoptimised (what CI tests); release is the
        default.
    release.py names            every file a release holds, one per line
    release.py matrix           the workflow's build and smoke-test matrices, as JSON
    release.py check-tag TAG    fails unless TAG is v<the crate's version>
    release.py verify DIR       every file of the release is in DIR, with its checksum, and
                                each .vsix holds a binary for its platform

Installs what it needs into the target directory: zig and cargo-zigbuild from PyPI (for the
musl targets' C), the Rust targets with rustup, the extension's npm packages.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS_FILE = ROOT / "release" / "targets.toml"
EXTENSION = ROOT / "editors" / "vscode"
NAME = "ppn-ls"
# The files every archive carries beside the binary.
ARCHIVE_DOCUMENTS = {"README.md": ROOT / "README.md", "LICENSE": ROOT / "LICENSE"}
# Pinned: the musl targets' C (tree-sitter, mimalloc) is compiled and linked by this zig.
ZIG_PACKAGES = ["ziglang==0.17.1", "cargo-zigbuild==0.24.1"]


@dataclass(frozen=True)
class Target:
    rust: str
    vscode: tuple[str, ...]
    built_by: str
    builder: str
    runner: str
    build_runner: str

    @property
    def windows(self) -> bool:
        return "-windows-" in self.rust

    @property
    def executable(self) -> str:
        return NAME + (".exe" if self.windows else "")

    @property
    def archive_suffix(self) -> str:
        return ".zip" if self.windows else ".tar.gz"


def load_targets() -> list[Target]:
    with TARGETS_FILE.open("rb") as file:
        entries = tomllib.load(file)["target"]
    targets = []
    for entry in entries:
        built_by = entry["built_by"]
        if built_by not in ("script", "runner"):
            raise SystemExit(f"{TARGETS_FILE}: {entry['rust']}: built_by must be script or runner")
        targets.append(
            Target(
                rust=entry["rust"],
                vscode=tuple(entry["vscode"]),
                built_by=built_by,
                builder=entry["builder"],
                runner=entry["runner"],
                build_runner=entry.get("build_runner", entry["runner"]),
            )
        )
    return targets


def crate_version() -> str:
    with (ROOT / "Cargo.toml").open("rb") as file:
        return tomllib.load(file)["workspace"]["package"]["version"]


def archive_stem(version: str, target: Target) -> str:
    """The archive's name without its suffix, and the folder inside it."""
    return f"{NAME}-{version}-{target.rust}"


def archive_name(version: str, target: Target) -> str:
    return archive_stem(version, target) + target.archive_suffix


def vsix_name(version: str, vscode_target: str) -> str:
    return f"{NAME}-{vscode_target}-{version}.vsix"


def universal_vsix_name(version: str) -> str:
    return f"{NAME}-universal-{version}.vsix"


def release_files(version: str, targets: list[Target]) -> list[str]:
    """Every file a whole release holds (the universal package aside)."""
    names = []
    for target in targets:
        names += [archive_name(version, target), archive_name(version, target) + ".sha256"]
        for vscode_target in target.vscode:
            names += [vsix_name(version, vscode_target), vsix_name(version, vscode_target) + ".sha256"]
    return names


def cargo_target_directory() -> Path:
    configured = os.environ.get("CARGO_TARGET_DIR")
    return Path(configured).resolve() if configured else ROOT / "target"


def profile_directory(profile: str) -> str:
    return {"dev": "debug", "test": "debug", "bench": "release"}.get(profile, profile)


def step(message: str) -> None:
    print(f"\n== {message}", flush=True)


def run(command: list[str], **options) -> None:
    print("+ " + " ".join(str(part) for part in command), flush=True)
    subprocess.run(command, check=True, **options)


def zig_tools(target_directory: Path) -> Path:
    """A virtual environment with zig and cargo-zigbuild from PyPI; its bin directory."""
    venv = target_directory / "release-tools" / "venv"
    bin_directory = venv / ("Scripts" if os.name == "nt" else "bin")
    stamp = venv / ("installed-" + hashlib.sha256(" ".join(ZIG_PACKAGES).encode()).hexdigest()[:16])
    if not stamp.exists():
        step(f"installing {', '.join(ZIG_PACKAGES)} from PyPI into {venv}")
        shutil.rmtree(venv, ignore_errors=True)
        run([sys.executable, "-m", "venv", str(venv)])
        run([str(bin_directory / "python"), "-m", "pip", "install", "--quiet", *ZIG_PACKAGES])
        stamp.touch()
    return bin_directory


def ensure_rust_target(rust_target: str) -> None:
    installed = subprocess.run(
        ["rustup", "target", "list", "--installed"], check=True, capture_output=True, text=True
    ).stdout.split()
    if rust_target not in installed:
        run(["rustup", "target", "add", rust_target])


def build_binary(target: Target, profile: str, target_directory: Path) -> Path:
    ensure_rust_target(target.rust)
    environment = dict(os.environ)
    arguments = ["--locked", "-p", NAME, "--bin", NAME, "--profile", profile, "--target", target.rust]
    if target.builder == "cargo-zigbuild":
        tools = zig_tools(target_directory)
        environment["PATH"] = str(tools) + os.pathsep + environment["PATH"]
        command = ["cargo", "zigbuild", *arguments]
    elif target.builder == "cargo":
        if target.rust == "x86_64-pc-windows-gnu" and shutil.which("x86_64-w64-mingw32-gcc") is None:
            raise SystemExit(
                "release: x86_64-pc-windows-gnu needs MinGW-w64 (Debian: apt-get install gcc-mingw-w64-x86-64)"
            )
        command = ["cargo", "build", *arguments]
    else:
        raise SystemExit(f"release: {target.rust}: unknown builder {target.builder}")
    step(f"building {target.rust} ({profile})")
    started = time.monotonic()
    run(command, cwd=ROOT, env=environment)
    binary = target_directory / target.rust / profile_directory(profile) / target.executable
    if not binary.is_file():
        raise SystemExit(f"release: cargo built no {binary}")
    print(f"{binary}: {binary.stat().st_size:,} bytes, built in {time.monotonic() - started:.0f} s")
    return binary


def source_date() -> int:
    """The time stamp of every archive entry: the commit's, so that archives are reproducible."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        shown = subprocess.run(
            ["git", "log", "-1", "--format=%ct"], cwd=ROOT, check=True, capture_output=True, text=True
        )
        return int(shown.stdout.strip())
    except (subprocess.CalledProcessError, FileNotFoundError, ValueError):
        return 315532800  # 1980-01-01, the earliest time a zip entry can hold


def archive_entries(target: Target, binary: Path) -> list[tuple[str, bytes, int]]:
    """(name inside the archive's folder, content, mode) for the binary and the documents."""
    entries = [(target.executable, binary.read_bytes(), 0o755)]
    for name, source in ARCHIVE_DOCUMENTS.items():
        entries.append((name, source.read_bytes(), 0o644))
    return entries


def write_archive(path: Path, folder: str, entries: list[tuple[str, bytes, int]], stamp: int) -> None:
    if path.name.endswith(".zip"):
        date_time = time.gmtime(max(stamp, 315532800))[:6]
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for name, content, mode in entries:
                info = zipfile.ZipInfo(f"{folder}/{name}", date_time=date_time)
                info.external_attr = (0o100000 | mode) << 16
                info.create_system = 3  # Unix, so that the mode above is read
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, content)
        return
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        directory = tarfile.TarInfo(folder)
        directory.type = tarfile.DIRTYPE
        directory.mode = 0o755
        directory.mtime = stamp
        archive.addfile(directory)
        for name, content, mode in entries:
            info = tarfile.TarInfo(f"{folder}/{name}")
            info.size = len(content)
            info.mode = mode
            info.mtime = stamp
            archive.addfile(info, io.BytesIO(content))
    with path.open("wb") as file, gzip.GzipFile(filename="", mode="wb", fileobj=file, mtime=0, compresslevel=9) as packed:
        packed.write(buffer.getvalue())


def write_checksum(path: Path) -> None:
    """`<sha256>  <name>`, as sha256sum writes it (`sha256sum -c` checks it)."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    path.with_name(path.name + ".sha256").write_text(f"{digest}  {path.name}\n")


def extension_packages_installed() -> None:
    if not (EXTENSION / "node_modules" / "@vscode" / "vsce").is_dir():
        step("installing the VS Code extension's npm packages (npm ci)")
        run(["npm", "ci", "--no-audit", "--no-fund"], cwd=EXTENSION, shell=os.name == "nt")


def write_vsix(binary: Path, vscode_target: str, out: Path) -> None:
    run(
        [
            "node",
            str(EXTENSION / "scripts" / "package-with-server.mjs"),
            "--target",
            vscode_target,
            "--server",
            str(binary),
            "--out",
            str(out),
        ],
        cwd=EXTENSION,
    )
    write_checksum(out)


def write_universal_vsix(dist: Path, version: str) -> None:
    """The universal package: no binary; ppn-ls's WebAssembly instead, which VS Code for the
    Web runs, and a desktop where neither `ppn.server.path` nor PATH names a ppn-ls. Its own
    script makes it (building the WebAssembly with scripts/build-web); this is where the
    release writes it, beside the platform packages."""
    out = dist / universal_vsix_name(version)
    script = EXTENSION / "scripts" / "package-universal.mjs"
    if not script.exists():
        print(f"NOT WRITTEN: {out.name}: there is no {script.relative_to(ROOT)} yet")
        return
    run(["node", str(script), "--out", str(out)], cwd=EXTENSION)
    write_checksum(out)


def build(arguments: argparse.Namespace) -> None:
    started = time.monotonic()
    targets = load_targets()
    known = {target.rust: target for target in targets}
    if arguments.targets:
        wanted = [name.strip() for name in arguments.targets.split(",") if name.strip()]
        unknown = [name for name in wanted if name not in known]
        if unknown:
            raise SystemExit(f"release: not in {TARGETS_FILE.relative_to(ROOT)}: {', '.join(unknown)}")
        chosen = [known[name] for name in wanted]
    else:
        chosen = [target for target in targets if target.built_by == "script"]
    version = crate_version()
    target_directory = cargo_target_directory()
    dist = Path(arguments.dist).resolve() if arguments.dist else target_directory / "dist"
    dist.mkdir(parents=True, exist_ok=True)
    stamp = source_date()
    if not arguments.no_vsix and any(target.vscode for target in chosen):
        extension_packages_installed()
    timings = []
    for target in chosen:
        target_started = time.monotonic()
        binary = build_binary(target, arguments.profile, target_directory)
        archive = dist / archive_name(version, target)
        step(f"writing {archive.name}")
        write_archive(archive, archive_stem(version, target), archive_entries(target, binary), stamp)
        write_checksum(archive)
        if not arguments.no_vsix:
            for vscode_target in target.vscode:
                step(f"writing {vsix_name(version, vscode_target)}")
                write_vsix(binary, vscode_target, dist / vsix_name(version, vscode_target))
        timings.append((target.rust, time.monotonic() - target_started))
    if not arguments.no_vsix and not arguments.targets:
        step(f"writing {universal_vsix_name(version)}")
        write_universal_vsix(dist, version)
    step(f"{dist}")
    for path in sorted(dist.iterdir()):
        if not path.name.endswith(".sha256"):
            print(f"{path.stat().st_size:>12,}  {path.name}")
    for rust, seconds in timings:
        print(f"{rust}: {seconds:.0f} s")
    print(f"release: {time.monotonic() - started:.0f} s in all")


def matrix(_: argparse.Namespace) -> None:
    """What the workflow builds on its runners, and where it runs each target's binary."""
    targets = load_targets()
    version = crate_version()
    print(
        json.dumps(
            {
                "version": version,
                "build": [
                    {"target": target.rust, "runner": target.build_runner}
                    for target in targets
                    if target.built_by == "runner"
                ],
                "smoke": [
                    {"target": target.rust, "runner": target.runner, "archive": archive_name(version, target)}
                    for target in targets
                ],
            }
        )
    )


def names(_: argparse.Namespace) -> None:
    print("\n".join(release_files(crate_version(), load_targets())))


def check_tag(arguments: argparse.Namespace) -> None:
    expected = "v" + crate_version()
    if arguments.tag != expected:
        raise SystemExit(f"release: the tag is {arguments.tag}, but the crate's version makes it {expected}")


# The processor an executable's header names, in VS Code's words.
ELF_MACHINES = {0x3E: "x64", 0xB7: "arm64"}
PE_MACHINES = {0x8664: "x64", 0xAA64: "arm64"}
MACHO_CPUS = {0x01000007: "x64", 0x0100000C: "arm64"}


def executable_kind(content: bytes) -> tuple[str, str]:
    """(operating system, processor) from an executable's header."""
    if content[:4] == b"\x7fELF":
        return "linux", ELF_MACHINES.get(int.from_bytes(content[18:20], "little"), "unknown")
    if content[:2] == b"MZ":
        header = int.from_bytes(content[0x3C:0x40], "little")
        if content[header : header + 4] == b"PE\0\0":
            return "windows", PE_MACHINES.get(int.from_bytes(content[header + 4 : header + 6], "little"), "unknown")
    if content[:4] == b"\xcf\xfa\xed\xfe":
        return "macos", MACHO_CPUS.get(int.from_bytes(content[4:8], "little"), "unknown")
    return "unknown", "unknown"


def vscode_platform_kind(vscode_target: str) -> tuple[str, str]:
    system, processor = vscode_target.split("-")
    return {"win32": "windows", "linux": "linux", "alpine": "linux", "darwin": "macos"}[system], processor


def verify(arguments: argparse.Namespace) -> None:
    """The whole release, as the workflow gathered it, before it is published."""
    dist = Path(arguments.dist)
    version = crate_version()
    problems = []
    for name in release_files(version, load_targets()):
        if not (dist / name).is_file():
            problems.append(f"{name} is missing")
        elif name.endswith(".sha256"):
            digest, named = (dist / name).read_text().split()
            packed = dist / named
            if named != name.removesuffix(".sha256") or not packed.is_file():
                problems.append(f"{name} names {named}")
            elif hashlib.sha256(packed.read_bytes()).hexdigest() != digest:
                problems.append(f"{named} does not match {name}")
    for target in load_targets():
        for vscode_target in target.vscode:
            path = dist / vsix_name(version, vscode_target)
            if not path.is_file():
                continue
            with zipfile.ZipFile(path) as package:
                inside = f"extension/server/{target.executable}"
                if inside not in package.namelist():
                    problems.append(f"{path.name} has no {inside}")
                    continue
                kind = executable_kind(package.read(inside)[:4096])
                if kind != vscode_platform_kind(vscode_target):
                    problems.append(f"{path.name}: {inside} is a {kind[0]} {kind[1]} executable")
                manifest = package.read("extension.vsixmanifest").decode()
                if f'TargetPlatform="{vscode_target}"' not in manifest:
                    problems.append(f"{path.name}: the manifest's TargetPlatform is not {vscode_target}")
    if problems:
        raise SystemExit("release: " + "\n  ".join(["the release is not whole:", *problems]))
    print(f"{dist}: every file of ppn-ls {version}'s release, checksums matching")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command")
    build_command = commands.add_parser("build", help="build archives and VS Code packages")
    build_command.add_argument("--targets", help="comma-separated Rust targets (default: the script's own)")
    build_command.add_argument("--profile", default="release", help="cargo profile (default: release)")
    build_command.add_argument("--dist", help="output folder (default: target/dist)")
    build_command.add_argument("--no-vsix", action="store_true", help="archives only")
    build_command.set_defaults(run=build)
    commands.add_parser("names", help="every file of a release").set_defaults(run=names)
    commands.add_parser("matrix", help="the workflow's matrices as JSON").set_defaults(run=matrix)
    tag_command = commands.add_parser("check-tag", help="the tag matches the crate's version")
    tag_command.add_argument("tag")
    tag_command.set_defaults(run=check_tag)
    verify_command = commands.add_parser("verify", help="a gathered release is whole")
    verify_command.add_argument("dist")
    verify_command.set_defaults(run=verify)
    given = sys.argv[1:]
    if not given or (given[0].startswith("-") and given[0] not in ("-h", "--help")):
        given = ["build", *given]  # `scripts/release --profile smoke` builds
    arguments = parser.parse_args(given)
    arguments.run(arguments)


if __name__ == "__main__":
    main()
