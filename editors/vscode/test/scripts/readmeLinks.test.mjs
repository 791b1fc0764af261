// Where the packaged README's relative links point (scripts/readme-links.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readmeLinkArguments } from '../../scripts/readme-links.mjs';

test('knowing no repository, the links stay relative', () => {
  assert.deepEqual(readmeLinkArguments({}, {}), ['--no-rewrite-relative-links']);
});

test("in GitHub Actions, the repository and commit built", () => {
  const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'ada/ppn-ls', GITHUB_SHA: 'abc123' };
  assert.deepEqual(readmeLinkArguments(env, {}), [
    '--baseContentUrl',
    'https://github.com/ada/ppn-ls/blob/abc123/editors/vscode/',
    '--baseImagesUrl',
    'https://github.com/ada/ppn-ls/raw/abc123/editors/vscode/',
  ]);
});

test('PPN_REPOSITORY_URL wins, then the manifest, at HEAD unless a ref is given', () => {
  const manifest = { repository: { type: 'git', url: 'git+https://github.com/bob/ppn-ls.git' } };
  assert.equal(readmeLinkArguments({}, manifest)[3], 'https://github.com/bob/ppn-ls/raw/HEAD/editors/vscode/');
  assert.equal(
    readmeLinkArguments({ PPN_REPOSITORY_URL: 'https://github.com/eve/ppn-ls/', PPN_REPOSITORY_REF: 'v0.1.0' }, manifest)[3],
    'https://github.com/eve/ppn-ls/raw/v0.1.0/editors/vscode/',
  );
});
