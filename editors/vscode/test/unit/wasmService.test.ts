import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { installFakeVscode } from './fakeVscode';

installFakeVscode();
// Loaded after the fake is installed, so that it sees it as `vscode`.
const { sessionName } = require('../../src/wasmService') as typeof import('../../src/wasmService');

const document = (path: string, languageId: string) => ({ uri: { path } as never, languageId });

test("a document is read as its own file where ppn-ls knows the file's extension", () => {
  assert.equal(sessionName(document('/games/tablut.ppn', 'ppn')), 'tablut.ppn');
  assert.equal(sessionName(document('/games/Record.OTN', 'otn')), 'Record.OTN');
  assert.equal(sessionName(document('/games/opening.wxf', 'wxf')), 'opening.wxf');
});

test('a document without such a name is read in the notation of its language', () => {
  assert.equal(sessionName(document('Untitled-1', 'otn')), 'Untitled-1.otg');
  assert.equal(sessionName(document('/games/notes.txt', 'xiangqi-fen')), 'notes.txt.fen');
  assert.equal(sessionName(document('', 'ppn')), 'untitled.ppn');
});
