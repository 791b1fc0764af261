"""Checks the editor integration files under editors/: the Helix languages.toml, the
Neovim Lua files and the VS Code manifest agree on the language, the server command
and the file type.

Run with: python3 -m unittest discover -s tests/editors -p 'test_*.py'
"""

import os
import json
import re
import shutil
import subprocess
import tomllib
import unittest
from pathlib import Path

EDITORS = Path(__file__).resolve().parents[2] / "editors"
SERVER_COMMAND = "ppn-ls"


class HelixTest(unittest.TestCase):
    def setUp(self):
        with open(EDITORS / "helix" / "languages.toml", "rb") as file:
            self.config = tomllib.load(file)

    def language(self, name):
        return self.by_name("language", name)

    def by_name(self, table, name):
        (found,) = [entry for entry in self.config[table] if entry["name"] == name]
        return found

    def test_language_entry(self):
        self.assertEqual(
            [entry["name"] for entry in self.config["language"]],
            ["ppn", "otn", "annofen", "xiangqi-fen", "wxf", "xay"],
        )
        language = self.language("ppn")
        self.assertEqual(language["name"], "ppn")
        self.assertEqual(language["scope"], "source.ppn")
        self.assertEqual(language["file-types"], ["ppn"])
        self.assertEqual(language["language-servers"], [SERVER_COMMAND])
        self.assertEqual(language["grammar"], "ppn")
        self.assertEqual(language["block-comment-tokens"], {"start": "{", "end": "}"})
        self.assertEqual(language["auto-pairs"], {"(": ")", "{": "}", "[": "]", "`": "'"})
        # Markdown's ```ppn blocks find the language by this.
        self.assertRegex("ppn", language["injection-regex"])
        self.assertNotRegex("ppnx", language["injection-regex"])

    def test_readme_names_helix_keys_for_games(self):
        readme = (EDITORS / "helix" / "README.md").read_text(encoding="utf-8")
        textobjects = (
            EDITORS / "helix" / "runtime" / "queries" / "ppn" / "textobjects.scm"
        ).read_text(encoding="utf-8")
        self.assertIn("(game) @class.around", textobjects)
        # In Helix `]c` is the next comment; classes (games here) are `]t` and `mat`.
        for text in (readme, textobjects):
            self.assertIn("]t", text)
            self.assertIn("mat", text)
            self.assertNotRegex(text, r"`\]c` (goes|jumps) to the next game")
        self.assertNotIn("Not yet here", readme)

    def test_language_server(self):
        self.assertEqual(
            self.config["language-server"], {SERVER_COMMAND: {"command": SERVER_COMMAND}}
        )

    def test_xiangqi_setup_languages(self):
        expected = {
            "annofen": ("xiangqi", ["annofen"]),
            "xiangqi-fen": ("xiangqi", ["fen"]),
            "wxf": ("xiangqi", ["wxf"]),
            "xay": ("yaml", ["xay"]),
        }
        for name, (grammar, file_types) in expected.items():
            language = self.language(name)
            self.assertEqual(language["grammar"], grammar, name)
            self.assertEqual(language["file-types"], file_types, name)
            self.assertEqual(language["language-servers"], [SERVER_COMMAND], name)
            queries = EDITORS / "helix" / "runtime" / "queries" / name / "highlights.scm"
            inherited = "yaml" if grammar == "yaml" else "xiangqi"
            self.assertIn(f"; inherits: {inherited}", queries.read_text(encoding="utf-8"), name)
        (xiangqi,) = [g for g in self.config["grammar"] if g["name"] == "xiangqi"]
        self.assertEqual(xiangqi["source"], {"path": "/path/to/ppn-ls/tree-sitter-xiangqi"})
        self.assertTrue((EDITORS / "helix" / "runtime" / "queries" / "xiangqi" / "highlights.scm").is_file())

    def test_otn_language_entry(self):
        language = self.by_name("language", "otn")
        self.assertEqual(language["scope"], "source.otn")
        self.assertEqual(language["file-types"], ["otg", "otn"])
        self.assertEqual(language["language-servers"], [SERVER_COMMAND])
        self.assertEqual(language["grammar"], "otn")
        grammar = self.by_name("grammar", "otn")
        self.assertEqual(grammar["source"], {"path": "/path/to/ppn-ls/tree-sitter-otn"})
        self.assertTrue((EDITORS / "helix" / "runtime" / "queries" / "otn" / "highlights.scm").is_file())

    def test_grammars_are_built_from_the_clone(self):
        # Each grammar is a folder of the clone, named from /path/to/ppn-ls, which the
        # README says to replace; Helix builds it with `hx --grammar build`.
        for grammar in self.config["grammar"]:
            source = grammar["source"]
            self.assertEqual(list(source), ["path"], grammar)
            self.assertTrue(source["path"].startswith("/path/to/ppn-ls/"), source)
            folder = ROOT / source["path"][len("/path/to/ppn-ls/"):]
            self.assertTrue((folder / "src" / "parser.c").is_file(), folder)
        readme = (EDITORS / "helix" / "README.md").read_text(encoding="utf-8")
        self.assertIn("/path/to/ppn-ls", readme)
        # Helix does not make the folder for path grammars, and the build fails without it.
        self.assertIn("mkdir -p ~/.config/helix/runtime/grammars", readme)
        self.assertIn("hx --grammar build", readme)


def lua_string_list(text, key):
    """The strings of `key = { 'a', "b" }` in a Lua table constructor."""
    match = re.search(rf"\b{key}\s*=\s*\{{([^}}]*)\}}", text)
    if match is None:
        return None
    return re.findall(r"""['"]([^'"]*)['"]""", match.group(1))


class NeovimTest(unittest.TestCase):
    def setUp(self):
        self.lsp = (EDITORS / "neovim" / "lsp" / "ppn_ls.lua").read_text(encoding="utf-8")
        self.ftdetect = (EDITORS / "neovim" / "ftdetect" / "ppn.lua").read_text(encoding="utf-8")

    def test_lsp_config_fields(self):
        self.assertRegex(self.lsp, r"(?m)^return \{")
        self.assertEqual(lua_string_list(self.lsp, "cmd"), [SERVER_COMMAND])
        self.assertEqual(
            lua_string_list(self.lsp, "filetypes"),
            ["ppn", "otn", "annofen", "xay", "fen", "wxf"],
        )
        self.assertEqual(lua_string_list(self.lsp, "root_markers"), [".git"])

    def test_ftdetect_maps_the_extension(self):
        self.assertIn("vim.filetype.add", self.ftdetect)
        self.assertRegex(self.ftdetect, r"\bppn\s*=\s*'ppn'")

    def test_xiangqi_ftdetect_maps_the_extensions_and_parsers(self):
        ftdetect = (EDITORS / "neovim" / "ftdetect" / "xiangqi.lua").read_text(encoding="utf-8")
        for extension in ("annofen", "xay", "fen", "wxf"):
            self.assertRegex(ftdetect, rf"\b{extension}\s*=\s*'{extension}'")
        self.assertIn("register('xiangqi', { 'annofen', 'fen', 'wxf' })", ftdetect)
        self.assertIn("register('yaml', 'xay')", ftdetect)
        self.assertTrue((EDITORS / "neovim" / "queries" / "xiangqi" / "highlights.scm").is_file())

    def test_ftdetect_maps_the_opentafl_extensions(self):
        ftdetect = (EDITORS / "neovim" / "ftdetect" / "otn.lua").read_text(encoding="utf-8")
        self.assertRegex(ftdetect, r"\botg\s*=\s*'otn'")
        self.assertRegex(ftdetect, r"\botn\s*=\s*'otn'")
        self.assertTrue((EDITORS / "neovim" / "queries" / "otn" / "highlights.scm").is_file())

    def test_readme_enables_the_config_by_its_file_name(self):
        readme = (EDITORS / "neovim" / "README.md").read_text(encoding="utf-8")
        self.assertIn("vim.lsp.enable('ppn_ls')", readme)
        self.assertIn("nvim-lspconfig", readme)
        self.assertNotIn("Not yet here", readme)

    def test_readme_shows_the_example_the_end_to_end_test_runs(self):
        readme = (EDITORS / "neovim" / "README.md").read_text(encoding="utf-8")
        example = (EDITORS / "neovim" / "example" / "init.lua").read_text(encoding="utf-8")
        self.assertIn(example, readme)
        for setting in ("virtual_text = true", "vim.lsp.completion.enable", "vim.lsp.inlay_hint.enable"):
            self.assertIn(setting, example)

    @unittest.skipIf(shutil.which("lua") is None, "lua is not installed")
    def test_lua_files_evaluate_to_the_expected_values(self):
        # Runs the files with a stand-in for Neovim's `vim` table and prints what they set.
        script = r"""
local added
vim = { filetype = { add = function(spec) added = spec end } }
local config = dofile(arg[1])
dofile(arg[2])
local function list(t) return table.concat(t, ',') end
print('cmd=' .. list(config.cmd))
print('filetypes=' .. list(config.filetypes))
print('root_markers=' .. list(config.root_markers))
local keys = {}
for key in pairs(config) do keys[#keys + 1] = key end
table.sort(keys)
print('keys=' .. list(keys))
print('ppn=' .. tostring(added.extension.ppn))
"""
        result = subprocess.run(
            [
                "lua",
                "-",
                str(EDITORS / "neovim" / "lsp" / "ppn_ls.lua"),
                str(EDITORS / "neovim" / "ftdetect" / "ppn.lua"),
            ],
            input=script,
            capture_output=True,
            text=True,
        )
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(
            result.stdout.splitlines(),
            [
                "cmd=ppn-ls",
                "filetypes=ppn,otn,annofen,xay,fen,wxf",
                "root_markers=.git",
                "keys=cmd,filetypes,root_markers",
                "ppn=ppn",
            ],
        )

    @unittest.skipIf(shutil.which("luac") is None, "luac is not installed")
    def test_lua_files_compile(self):
        for path in (EDITORS / "neovim").rglob("*.lua"):
            result = subprocess.run(["luac", "-p", str(path)], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, f"{path}: {result.stderr}")


class VscodeManifestTest(unittest.TestCase):
    def setUp(self):
        self.root = EDITORS / "vscode"
        self.manifest = json.loads((self.root / "package.json").read_text(encoding="utf-8"))
        self.contributes = self.manifest["contributes"]

    def test_language_and_grammar_files_exist_and_agree(self):
        (language,) = [entry for entry in self.contributes["languages"] if entry["id"] == "ppn"]
        self.assertEqual(language["id"], "ppn")
        self.assertEqual(language["extensions"], [".ppn"])
        (otn,) = [entry for entry in self.contributes["languages"] if entry["id"] == "otn"]
        self.assertEqual(otn["extensions"], [".otg", ".otn"])
        (otn_grammar,) = [entry for entry in self.contributes["grammars"] if entry["language"] == "otn"]
        tm_otn = json.loads((self.root / otn_grammar["path"]).read_text(encoding="utf-8"))
        self.assertEqual(tm_otn["scopeName"], otn_grammar["scopeName"])
        self.assertTrue((self.root / otn["configuration"]).is_file())
        (grammar,) = [entry for entry in self.contributes["grammars"] if entry["language"] == "ppn"]
        self.assertEqual(grammar["language"], "ppn")
        self.assertEqual(grammar["scopeName"], "source.ppn")
        tm_language = json.loads((self.root / grammar["path"]).read_text(encoding="utf-8"))
        self.assertEqual(tm_language["scopeName"], "source.ppn")
        configuration = json.loads(
            (self.root / language["configuration"]).read_text(encoding="utf-8")
        )
        self.assertEqual(configuration["comments"]["blockComment"], ["{", "}"])
        pairs = {(pair["open"], pair["close"]) for pair in configuration["autoClosingPairs"]}
        self.assertEqual(pairs, {("{", "}"), ("(", ")"), ("[", "]"), ("`", "'")})

    def test_xiangqi_setup_languages_and_grammars(self):
        expected = {
            "annofen": ".annofen",
            "xay": ".xay",
            "xiangqi-fen": ".fen",
            "wxf": ".wxf",
        }
        for language_id, extension in expected.items():
            (language,) = [e for e in self.contributes["languages"] if e["id"] == language_id]
            self.assertEqual(language["extensions"], [extension])
            self.assertTrue((self.root / language["configuration"]).is_file(), language_id)
            (grammar,) = [e for e in self.contributes["grammars"] if e["language"] == language_id]
            tm_language = json.loads((self.root / grammar["path"]).read_text(encoding="utf-8"))
            self.assertEqual(tm_language["scopeName"], grammar["scopeName"])
            self.assertEqual(grammar["scopeName"], f"source.{language_id}")
        for menu in self.contributes["menus"].values():
            for item in menu:
                if item["command"] == "ppn.showBoard":
                    self.assertIn("wxf", item["when"])

    def test_metadata_is_embedded_yaml(self):
        (grammar,) = [entry for entry in self.contributes["grammars"] if entry["language"] == "ppn"]
        self.assertEqual(grammar["embeddedLanguages"], {"meta.embedded.block.yaml": "yaml"})
        tm_language = json.loads((self.root / grammar["path"]).read_text(encoding="utf-8"))
        metadata = tm_language["repository"]["metadata"]
        self.assertEqual(metadata["contentName"], "meta.embedded.block.yaml")
        self.assertEqual(metadata["patterns"], [{"include": "source.yaml"}])

    def test_settings_and_commands(self):
        properties = self.contributes["configuration"]["properties"]
        # Empty: the ppn-ls bundled in a platform .vsix, else the one on PATH.
        self.assertEqual(properties["ppn.server.path"]["default"], "")
        self.assertEqual(properties["ppn.server.args"]["default"], [])
        commands = {command["command"] for command in self.contributes["commands"]}
        self.assertIn("ppn.showBoard", commands)
        show_board = next(c for c in self.contributes["commands"] if c["command"] == "ppn.showBoard")
        self.assertEqual((show_board["category"], show_board["title"]), ("PPN", "Show Board"))

    def test_entry_point_is_the_compiled_extension(self):
        self.assertEqual(self.manifest["main"], "./out/src/extension.js")
        self.assertTrue((self.root / "src" / "extension.ts").is_file())

    def test_lockfile_matches_the_manifest(self):
        lock = json.loads((self.root / "package-lock.json").read_text(encoding="utf-8"))
        root = lock["packages"][""]
        self.assertEqual(root["dependencies"], self.manifest["dependencies"])
        self.assertEqual(root["devDependencies"], self.manifest["devDependencies"])

    def test_workspace_trust_restricts_the_settings_that_choose_the_server(self):
        capabilities = self.manifest["capabilities"]
        untrusted = capabilities["untrustedWorkspaces"]
        self.assertEqual(untrusted["supported"], "limited")
        self.assertTrue(untrusted["description"].strip())
        restricted = ["ppn.server.path", "ppn.server.args"]
        self.assertEqual(untrusted["restrictedConfigurations"], restricted)
        properties = self.contributes["configuration"]["properties"]
        for name in restricted:
            # A setting a workspace cannot set needs no restriction; these can.
            self.assertEqual(properties[name]["scope"], "machine-overridable", name)
        # Every setting that names a program or its arguments is restricted.
        launching = [name for name in properties if name.startswith("ppn.server.")]
        self.assertEqual(sorted(launching), sorted(restricted))
        self.assertIs(capabilities["virtualWorkspaces"], True)
        # The extension keeps to these itself, whatever the editor hands it.
        source = (self.root / "src" / "launchSettings.ts").read_text(encoding="utf-8")
        self.assertIn("export const LAUNCH_SETTINGS = ['ppn.server.path', 'ppn.server.args']", source)

    def test_loads_in_vscode_for_the_web_1_91_and_uses_no_newer_api(self):
        def minor(version_range):
            match = re.fullmatch(r"[\^~]?1\.(\d+)\.\d+", version_range)
            self.assertIsNotNone(match, version_range)
            return int(match.group(1))

        engine = minor(self.manifest["engines"]["vscode"])
        self.assertLessEqual(engine, 91, "VS Code for the Web 1.91 must load the extension")
        # The API the code is type-checked against is that of the oldest VS Code it claims.
        types = minor(self.manifest["devDependencies"]["@types/vscode"])
        self.assertEqual(types, engine)
        self.assertTrue(self.manifest["devDependencies"]["@types/vscode"].startswith("~"))
        lock = json.loads((self.root / "package-lock.json").read_text(encoding="utf-8"))
        installed = lock["packages"]["node_modules/@types/vscode"]["version"]
        self.assertEqual(minor(installed), engine, installed)
        # The language client's own floor is no higher.
        client_engine = lock["packages"]["node_modules/vscode-languageclient"]["engines"]["vscode"]
        self.assertLessEqual(minor(client_engine), engine)

    def test_marketplace_listing(self):
        manifest = self.manifest
        self.assertTrue(manifest["displayName"].strip())
        self.assertGreater(len(manifest["description"]), 60)
        known_categories = {
            "Programming Languages", "Snippets", "Linters", "Themes", "Debuggers", "Formatters",
            "Keymaps", "SCM Providers", "Other", "Extension Packs", "Language Packs", "Data Science",
            "Machine Learning", "Visualization", "Notebooks", "Education", "Testing", "AI", "Chat",
        }
        self.assertLessEqual(set(manifest["categories"]), known_categories)
        self.assertIn("Programming Languages", manifest["categories"])
        self.assertLessEqual(len(manifest["keywords"]), 30)
        self.assertEqual(len(set(manifest["keywords"])), len(manifest["keywords"]))
        # The icon: a PNG (the Marketplace takes no SVG) of at least 128 x 128 pixels.
        icon = (self.root / manifest["icon"]).read_bytes()
        self.assertEqual(icon[:8], b"\x89PNG\r\n\x1a\n")
        width, height = int.from_bytes(icon[16:20], "big"), int.from_bytes(icon[20:24], "big")
        self.assertGreaterEqual(min(width, height), 128)
        self.assertEqual(width, height)
        self.assertRegex(manifest["galleryBanner"]["color"], r"^#[0-9a-fA-F]{6}$")
        self.assertIn(manifest["galleryBanner"]["theme"], ("dark", "light"))
        # The README's pictures exist; the changelog has the version's entry.
        readme = (self.root / "README.md").read_text(encoding="utf-8")
        pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
        self.assertTrue(pictures, "the README shows no picture")
        for picture in pictures:
            self.assertTrue((self.root / picture).is_file(), picture)
        changelog = (self.root / "CHANGELOG.md").read_text(encoding="utf-8")
        self.assertIn(f"## {manifest['version']}", changelog)



ROOT = EDITORS.parent
# The ppn-ls scripts/test built (PPN_LS), else the debug build.
BINARY = Path(os.environ["PPN_LS"]) if os.environ.get("PPN_LS") else ROOT / "target" / "debug" / SERVER_COMMAND
# Helix 25.07's own keys after Space (helix-term/src/keymap/default.rs).
HELIX_SPACE_KEYS = set("fFe.bjsSdDgaGwyYpPR/krhcC?'") | {"A-c"}


class BoardUnderTheCursorTest(unittest.TestCase):
    """Helix's key bindings and Neovim's :PpnBoard for the board under the cursor."""

    def setUp(self):
        with open(EDITORS / "helix" / "board-keys.toml", "rb") as file:
            self.keys = tomllib.load(file)["keys"]["normal"]["space"]

    def expand(self, command, line, column):
        self.assertTrue(command.startswith(":sh "), command)
        return (
            command[len(":sh "):]
            .replace(SERVER_COMMAND, str(BINARY), 1)
            .replace("%{buffer_name}", "examples/tablut-short.ppn")
            .replace("%{cursor_line}", str(line))
            .replace("%{cursor_column}", str(column))
        )

    def test_helix_bindings_render_the_move_at_the_cursor(self):
        # The file name quoted for the shell, since it may hold spaces.
        prefix = ":sh ppn-ls render '%{buffer_name}' --at %{cursor_line}:%{cursor_column}"
        self.assertEqual(self.keys["v"], prefix)
        self.assertTrue(self.keys["V"].startswith(prefix + " -o "), self.keys["V"])

    def test_helix_bindings_leave_helix_keys_alone(self):
        self.assertEqual(set(self.keys) & HELIX_SPACE_KEYS, set())
        readme = (EDITORS / "helix" / "README.md").read_text(encoding="utf-8")
        for key in self.keys:
            self.assertIn(f"`Space {key}`", readme)

    def test_helix_bindings_run(self):
        self.assertTrue(BINARY.exists(), f"{BINARY} is not built: cargo build -p ppn-ls (scripts/test builds it first)")
        lines = (ROOT / "examples" / "tablut-short.ppn").read_text(encoding="utf-8").splitlines()
        line = next(i for i, text in enumerate(lines, 1) if text.startswith("1."))
        text = subprocess.run(
            self.expand(self.keys["v"], line, 1), shell=True, cwd=ROOT,
            capture_output=True, text=True, check=True,
        ).stdout
        self.assertTrue(text.startswith("--- 1. "), text)
        picture = self.expand(self.keys["V"], line, 1).replace("xdg-open", "true")
        subprocess.run(picture, shell=True, cwd=ROOT, check=True)
        self.assertTrue(Path("/tmp/ppn-board.svg").read_text(encoding="utf-8").startswith("<svg "))

    def test_neovim_command_asks_the_server_for_the_picture(self):
        plugin = (EDITORS / "neovim" / "plugin" / "ppn_board.lua").read_text(encoding="utf-8")
        self.assertIn("nvim_create_user_command('PpnBoard'", plugin)
        self.assertIn("'ppn/render'", plugin)
        readme = (EDITORS / "neovim" / "README.md").read_text(encoding="utf-8")
        self.assertIn(":PpnBoard", readme)


if __name__ == "__main__":
    unittest.main()
