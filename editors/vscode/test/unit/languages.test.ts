import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { SERVED_LANGUAGES, isServedLanguage } from '../../src/languages';

test('the served languages are the languages the manifest contributes', () => {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
  const contributed = manifest.contributes.languages.map((language: { id: string }) => language.id);
  assert.deepEqual([...SERVED_LANGUAGES].sort(), [...contributed].sort());
  const when = manifest.contributes.menus['editor/title'][0].when as string;
  for (const id of SERVED_LANGUAGES) {
    assert.ok(new RegExp(when.replace(/^editorLangId =~ \/(.*)\/$/, '$1')).test(id), id);
  }
});

test('other languages are not served', () => {
  assert.ok(isServedLanguage('wxf'));
  assert.ok(!isServedLanguage('markdown'));
  assert.ok(!isServedLanguage('yaml'));
});
