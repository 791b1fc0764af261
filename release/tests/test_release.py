"""Tests of the release files that scripts/release wrote into $PPN_RELEASE_DIST (run by
scripts/test-release-targets, which builds them first in the smoke profile).

- the binstall templates of server/Cargo.toml, expanded for every target of
  release/targets.toml, name the archives the script writes, and the binary inside them;
- each archive the script builds is there, matches its .sha256 and unpacks to an
  executable with the documents;
- the musl binaries are static ELF for their processor; the Windows one a PE32+ console
  program that needs only Windows' own DLLs;
- the x86-64 musl binary, and the aarch64 one under qemu-aarch64-static, pass the smoke
  test (release/smoke_test.py) from their archives;
- each .vsix holds one binary, for its platform, executable, where the extension looks for
  it (its own compiled serverPath.js is asked), with the manifest's TargetPlatform;
- package-with-server.mjs refuses a binary built for another platform.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import unittest
import zipfile
from pathlib import Path
from xml.etree import ElementTree

RELEASE = Path(__file__).resolve().parent.parent
ROOT = RELEASE.parent


def _load_release_script(name: str, file: str):
    """A script of release/ as a module (by its path: the folder is also named release)."""
    specification = importlib.util.spec_from_file_location(name, RELEASE / file)
    module = importlib.util.module_from_spec(specification)
    sys.modules[specification.name] = module
    specification.loader.exec_module(module)
    return module


release = _load_release_script("release_script", "release.py")
smoke_test = _load_release_script("release_smoke_test", "smoke_test.py")

DIST = Path(os.environ.get("PPN_RELEASE_DIST", release.cargo_target_directory() / "dist"))
TARGETS = release.load_targets()
BUILT_HERE = [target for target in TARGETS if target.built_by == "script"]
VERSION = release.crate_version()

# What the Windows binary may import: DLLs every Windows 10 and later has.
WINDOWS_SYSTEM_DLLS = {
    "advapi32.dll",
    "bcrypt.dll",
    "bcryptprimitives.dll",
    "kernel32.dll",
    "msvcrt.dll",
    "ntdll.dll",
    "userenv.dll",
    "ws2_32.dll",
    "ucrtbase.dll",
}

executable_kind = release.executable_kind
expected_kind = release.vscode_platform_kind


def expand(template: str, values: dict[str, str]) -> str:
    """A binstall template with its `{ key }` placeholders filled; an unknown key fails."""

    def value(match: re.Match) -> str:
        key = match.group(1)
        if key not in values:
            raise AssertionError(f"the binstall template {template!r} uses {{ {key} }}, which the test does not know")
        return values[key]

    return re.sub(r"\{\s*([a-z-]+)\s*\}", value, template)


def binstall_metadata() -> dict:
    with (ROOT / "server" / "Cargo.toml").open("rb") as file:
        return tomllib.load(file)["package"]["metadata"]["binstall"]


def binstall_for(rust_target: str) -> dict:
    metadata = binstall_metadata()
    settings = {key: value for key, value in metadata.items() if key != "overrides"}
    settings.update(metadata.get("overrides", {}).get(rust_target, {}))
    return settings


def archive_binary(target: release.Target) -> tuple[bytes, int]:
    """The binary inside the target's archive, and its mode."""
    path = DIST / release.archive_name(VERSION, target)
    inside = f"{release.archive_stem(VERSION, target)}/{target.executable}"
    if target.windows:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo(inside)
            return archive.read(info), info.external_attr >> 16
    with tarfile.open(path) as archive:
        member = archive.getmember(inside)
        return archive.extractfile(member).read(), member.mode


class BinstallTemplates(unittest.TestCase):
    def test_templates_name_every_target_archive_and_its_binary(self):
        listed = subprocess.run(
            [sys.executable, str(RELEASE / "release.py"), "names"], check=True, capture_output=True, text=True
        ).stdout.split()
        self.assertEqual(len(TARGETS), len({target.rust for target in TARGETS}), "a target is listed twice")
        for target in TARGETS:
            with self.subTest(target=target.rust):
                settings = binstall_for(target.rust)
                values = {
                    "repo": "https://example.invalid/ppn-ls",
                    "name": "ppn-ls",
                    "bin": "ppn-ls",
                    "version": VERSION,
                    "target": target.rust,
                    "binary-ext": ".exe" if target.windows else "",
                }
                url = expand(settings["pkg-url"], values)
                self.assertEqual(url.rsplit("/", 1)[0], f"https://example.invalid/ppn-ls/releases/download/v{VERSION}")
                self.assertEqual(url.rsplit("/", 1)[1], release.archive_name(VERSION, target))
                self.assertIn(url.rsplit("/", 1)[1], listed, "release.py names does not list it")
                self.assertEqual(settings["pkg-fmt"], "zip" if target.windows else "tgz")
                self.assertEqual(
                    expand(settings["bin-dir"], values),
                    f"{release.archive_stem(VERSION, target)}/{target.executable}",
                )

    def test_overrides_are_for_listed_targets_only(self):
        overridden = set(binstall_metadata().get("overrides", {}))
        self.assertLessEqual(overridden, {target.rust for target in TARGETS})


class WrittenArchives(unittest.TestCase):
    def test_every_target_built_here_has_its_archive_with_a_matching_checksum(self):
        for target in BUILT_HERE:
            with self.subTest(target=target.rust):
                archive = DIST / release.archive_name(VERSION, target)
                self.assertTrue(archive.is_file(), f"scripts/release wrote no {archive.name}")
                digest, name = (DIST / (archive.name + ".sha256")).read_text().split()
                self.assertEqual(name, archive.name)
                self.assertEqual(digest, hashlib.sha256(archive.read_bytes()).hexdigest())

    def test_the_binary_is_where_binstall_looks_and_executable(self):
        for target in BUILT_HERE:
            with self.subTest(target=target.rust):
                values = {"name": "ppn-ls", "bin": "ppn-ls", "version": VERSION, "target": target.rust}
                values["binary-ext"] = ".exe" if target.windows else ""
                inside = expand(binstall_for(target.rust)["bin-dir"], values)
                self.assertEqual(inside, f"{release.archive_stem(VERSION, target)}/{target.executable}")
                content, mode = archive_binary(target)
                self.assertEqual(stat.S_IMODE(mode), 0o755, f"{inside} has mode {oct(mode)}")
                self.assertEqual(executable_kind(content)[0], "windows" if target.windows else "linux")


def tool_output(command: list[str]) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


class Binaries(unittest.TestCase):
    def unpacked(self, target: release.Target) -> Path:
        content, _ = archive_binary(target)
        directory = Path(tempfile.mkdtemp(prefix="ppn-ls-binary-"))
        self.addCleanup(shutil.rmtree, directory)
        binary = directory / target.executable
        binary.write_bytes(content)
        binary.chmod(0o755)
        return binary

    def test_musl_binaries_are_static_elf_for_their_processor(self):
        described = {"x86_64-unknown-linux-musl": "x86-64", "aarch64-unknown-linux-musl": "ARM aarch64"}
        for rust_target, processor in described.items():
            with self.subTest(target=rust_target):
                binary = self.unpacked(next(target for target in TARGETS if target.rust == rust_target))
                kind = tool_output(["file", "-b", str(binary)])
                self.assertIn(f"ELF 64-bit LSB executable, {processor}", kind)
                self.assertIn("statically linked", kind)
                headers = tool_output(["objdump", "-p", str(binary)])
                self.assertNotIn("INTERP", headers, "a static binary asks for no program loader")
                self.assertNotIn("NEEDED", headers, "a static binary needs no shared library")

    def test_musl_binaries_run_in_an_empty_root(self):
        """No /lib, no libc, no /etc: what any Linux has (Alpine, RHEL 8, ...) is enough."""
        if os.geteuid() != 0:
            message = "the empty-root check needs root (chroot)"
            allowed = os.environ.get("PPN_ALLOWED_SKIPS", "").split(",")
            if os.environ.get("PPN_FORBID_SKIPS") == "1" and "release-empty-root" not in allowed:
                self.fail(message)
            if os.environ.get("PPN_TEST_SKIPS"):
                with open(os.environ["PPN_TEST_SKIPS"], "a", encoding="utf-8") as skips:
                    skips.write(f"release-empty-root: {message}\n")
            self.skipTest(f"SKIPPED: {message}")
        for rust_target, emulator in [("x86_64-unknown-linux-musl", None), ("aarch64-unknown-linux-musl", "qemu-aarch64-static")]:
            with self.subTest(target=rust_target):
                root = Path(tempfile.mkdtemp(prefix="ppn-ls-root-"))
                self.addCleanup(shutil.rmtree, root)
                shutil.copy(self.unpacked(next(target for target in TARGETS if target.rust == rust_target)), root / "ppn-ls")
                shutil.copytree(ROOT / "examples", root / "examples")
                command = ["chroot", str(root)]
                if emulator:
                    # qemu's static build runs in the empty root as well.
                    shutil.copy(shutil.which(emulator), root / emulator)
                    command.append(f"/{emulator}")
                checked = subprocess.run([*command, "/ppn-ls", "check", "/examples"], capture_output=True, text=True, timeout=300)
                self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
                self.assertIn(smoke_test.clean_examples_summary(), checked.stdout)
                self.assertEqual(sorted(path.name for path in root.iterdir()), sorted(["ppn-ls", "examples", *([emulator] if emulator else [])]))

    def test_windows_binary_is_a_pe32_plus_console_program_needing_only_system_dlls(self):
        binary = self.unpacked(next(target for target in TARGETS if target.rust == "x86_64-pc-windows-gnu"))
        self.assertIn("PE32+ executable (console) x86-64", tool_output(["file", "-b", str(binary)]))
        imports = {
            line.split(":", 1)[1].strip().lower()
            for line in tool_output(["objdump", "-p", str(binary)]).splitlines()
            if line.strip().startswith("DLL Name:")
        }
        self.assertIn("kernel32.dll", imports)
        self.assertEqual(
            {name for name in imports if not name.startswith("api-ms-win-")} - WINDOWS_SYSTEM_DLLS,
            set(),
            "the binary needs DLLs Windows does not have (MinGW's own must be linked in)",
        )


class SmokeTests(unittest.TestCase):
    def smoke_test(self, rust_target: str, runner: str = "") -> None:
        archive = DIST / release.archive_name(VERSION, next(target for target in TARGETS if target.rust == rust_target))
        command = [sys.executable, str(RELEASE / "smoke_test.py"), "--archive", str(archive)]
        if runner:
            command += ["--runner", runner]
        finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
        print(finished.stdout, end="", file=sys.stderr)
        self.assertEqual(finished.returncode, 0, finished.stdout + finished.stderr)
        self.assertIn("ok: shutdown, exit: the server ended with 0", finished.stdout)

    def test_x86_64_musl(self):
        self.smoke_test("x86_64-unknown-linux-musl")

    def test_aarch64_musl_under_qemu(self):
        self.smoke_test("aarch64-unknown-linux-musl", runner="qemu-aarch64-static")

    def test_the_smoke_test_fails_on_a_binary_that_is_not_ppn_ls(self):
        finished = subprocess.run(
            [sys.executable, str(RELEASE / "smoke_test.py"), "--binary", shutil.which("true") or "/bin/true"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(finished.returncode, 1)
        self.assertIn("FAILED: smoke test", finished.stderr)
        self.assertIn("not 'ppn-ls ", finished.stderr)


class VscodePackages(unittest.TestCase):
    def test_each_platform_package_holds_its_platforms_binary(self):
        for target in BUILT_HERE:
            archived, _ = archive_binary(target)
            for vscode_target in target.vscode:
                with self.subTest(vscode=vscode_target):
                    path = DIST / release.vsix_name(VERSION, vscode_target)
                    self.assertTrue(path.is_file(), f"scripts/release wrote no {path.name}")
                    digest, name = (DIST / (path.name + ".sha256")).read_text().split()
                    self.assertEqual((name, digest), (path.name, hashlib.sha256(path.read_bytes()).hexdigest()))
                    with zipfile.ZipFile(path) as package:
                        servers = [name for name in package.namelist() if name.startswith("extension/server/")]
                        self.assertEqual(servers, [f"extension/server/{target.executable}"])
                        info = package.getinfo(servers[0])
                        content = package.read(info)
                        self.assertEqual(executable_kind(content), expected_kind(vscode_target))
                        self.assertEqual(content, archived, "the package's binary is the archive's")
                        self.assertTrue(info.external_attr >> 16 & stat.S_IXUSR, f"{servers[0]} has no run bit")
                        manifest = ElementTree.fromstring(package.read("extension.vsixmanifest"))
                        identity = manifest.find(".//{*}Identity")
                        self.assertEqual(identity.get("TargetPlatform"), vscode_target)
                        self.assertEqual(identity.get("Version"), VERSION)

    def test_each_platform_package_holds_only_what_a_user_needs(self):
        """The extension's own audit of a packaged .vsix (editors/vscode/scripts/check-package.mjs)."""
        packages = [DIST / release.vsix_name(VERSION, vscode) for target in BUILT_HERE for vscode in target.vscode]
        arguments = [argument for package in packages for argument in ("--vsix", str(package))]
        audited = subprocess.run(
            ["node", str(ROOT / "editors" / "vscode" / "scripts" / "check-package.mjs"), *arguments],
            cwd=ROOT / "editors" / "vscode",
            capture_output=True,
            text=True,
            timeout=300,
        )
        self.assertEqual(audited.returncode, 0, audited.stdout + audited.stderr)
        for package in packages:
            self.assertIn(f"{package}: ", audited.stdout)

    def test_the_extension_finds_the_bundled_binary_on_each_platform(self):
        """The package's own compiled serverPath.js, asked where its binary is for the
        package's platform, names the file that is there and executable once unpacked."""
        if shutil.which("node") is None:
            self.fail("node is needed to ask the extension where its binary is")
        for target in BUILT_HERE:
            for vscode_target in target.vscode:
                with self.subTest(vscode=vscode_target):
                    unpacked = Path(tempfile.mkdtemp(prefix="ppn-ls-vsix-"))
                    self.addCleanup(shutil.rmtree, unpacked)
                    with zipfile.ZipFile(DIST / release.vsix_name(VERSION, vscode_target)) as package:
                        package.extractall(unpacked)
                        for info in package.infolist():
                            if info.external_attr >> 16:
                                os.chmod(unpacked / info.filename, stat.S_IMODE(info.external_attr >> 16))
                    extension = unpacked / "extension"
                    node_platform = {"win32": "win32", "linux": "linux", "alpine": "linux", "darwin": "darwin"}[
                        vscode_target.split("-")[0]
                    ]
                    script = (
                        "const p = require(process.argv[1]);"
                        "console.log(p.bundledServerPath(process.argv[2], process.argv[3]));"
                    )
                    found = tool_output(
                        ["node", "-e", script, str(extension / "out" / "src" / "serverPath.js"), str(extension), node_platform]
                    ).strip()
                    if node_platform == "win32":
                        found = found.replace("\\", "/")
                        self.assertTrue(found.endswith("/server/ppn-ls.exe"), found)
                        found_path = extension / "server" / "ppn-ls.exe"
                    else:
                        found_path = Path(found)
                    self.assertTrue(found_path.is_file(), f"the extension looks for {found}, which is not there")
                    self.assertTrue(os.access(found_path, os.X_OK), f"{found_path} is not executable once unpacked")

    def package_with_server(self, vscode_target: str, server: str) -> subprocess.CompletedProcess:
        out = Path(tempfile.mkdtemp(prefix="ppn-ls-refused-"))
        self.addCleanup(shutil.rmtree, out)
        return subprocess.run(
            [
                "node",
                str(ROOT / "editors" / "vscode" / "scripts" / "package-with-server.mjs"),
                "--target",
                vscode_target,
                "--server",
                server,
                "--out",
                str(out / "refused.vsix"),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )

    def test_package_with_server_refuses_another_platforms_binary(self):
        x86_64_linux, _ = archive_binary(next(target for target in TARGETS if target.rust == "x86_64-unknown-linux-musl"))
        directory = Path(tempfile.mkdtemp(prefix="ppn-ls-wrong-"))
        self.addCleanup(shutil.rmtree, directory)
        binary = directory / "ppn-ls"
        binary.write_bytes(x86_64_linux)
        for vscode_target in ("linux-arm64", "win32-x64", "darwin-x64"):
            with self.subTest(vscode=vscode_target):
                refused = self.package_with_server(vscode_target, str(binary))
                self.assertEqual(refused.returncode, 2, refused.stdout + refused.stderr)
                self.assertIn(f"is a linux x64 executable, not one for {vscode_target}", refused.stderr)

    def test_package_with_server_refuses_a_glibc_binary_for_alpine(self):
        # Any dynamically linked program of this (glibc) system will do.
        glibc_program = os.path.realpath(shutil.which("ls") or "/bin/ls")
        with open(glibc_program, "rb") as file:
            kind = executable_kind(file.read(64))
        if kind != ("linux", "x64") or "ld-linux" not in tool_output(["file", "-b", glibc_program]):
            self.skipTest(f"SKIPPED: {glibc_program} is not a glibc x86-64 program")
        refused = self.package_with_server("alpine-x64", glibc_program)
        self.assertEqual(refused.returncode, 2, refused.stdout + refused.stderr)
        self.assertIn("which Alpine does not have", refused.stderr)


class VerifyRelease(unittest.TestCase):
    """`release.py verify`, which the workflow runs on the gathered files before publishing."""

    def verify(self, directory: Path) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(RELEASE / "release.py"), "verify", str(directory)], capture_output=True, text=True
        )

    def copy_of_the_release(self) -> Path:
        directory = Path(tempfile.mkdtemp(prefix="ppn-ls-verify-"))
        self.addCleanup(shutil.rmtree, directory)
        for path in DIST.iterdir():
            shutil.copy(path, directory / path.name)
        return directory

    def test_names_exactly_the_files_the_workflow_builds_elsewhere_as_missing(self):
        checked = self.verify(self.copy_of_the_release())
        self.assertEqual(checked.returncode, 1)
        missing = {line.strip().removesuffix(" is missing") for line in checked.stderr.splitlines() if "is missing" in line}
        built_elsewhere = {target.rust for target in TARGETS if target.built_by == "runner"}
        expected = {
            name
            for name in release.release_files(VERSION, TARGETS)
            if any(rust in name for rust in built_elsewhere)
            or any(f"-{vscode}-" in name for target in TARGETS if target.rust in built_elsewhere for vscode in target.vscode)
        }
        self.assertEqual(missing, expected)
        self.assertNotIn("does not match", checked.stderr)

    def test_finds_a_file_that_does_not_match_its_checksum(self):
        directory = self.copy_of_the_release()
        archive = directory / release.archive_name(VERSION, BUILT_HERE[0])
        archive.write_bytes(archive.read_bytes() + b"\0")
        checked = self.verify(directory)
        self.assertIn(f"{archive.name} does not match {archive.name}.sha256", checked.stderr)


class WorkflowMatrix(unittest.TestCase):
    def test_the_workflow_builds_or_runs_every_target_from_the_list(self):
        plan = json.loads(tool_output([sys.executable, str(RELEASE / "release.py"), "matrix"]))
        self.assertEqual(plan["version"], VERSION)
        self.assertEqual(
            {entry["target"] for entry in plan["build"]},
            {target.rust for target in TARGETS if target.built_by == "runner"},
        )
        self.assertEqual([entry["target"] for entry in plan["smoke"]], [target.rust for target in TARGETS])
        workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text()
        self.assertIn("release.py matrix", workflow, "the workflow reads its targets from release.py matrix")
        self.assertIn("release/smoke_test.py", workflow)


if __name__ == "__main__":
    unittest.main()
