import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverFailureMessage } from '../../src/serverFailure';

test('a server that exits before it answers is named with its exit and the setting', () => {
  const message = serverFailureMessage({
    command: '/opt/ppn-ls',
    source: 'setting',
    wasRunning: false,
    exit: { code: 3, signal: null },
  });
  assert.match(message, /could not start: ppn-ls, as set in "ppn\.server\.path", "\/opt\/ppn-ls" exited with code 3 before it answered/);
  assert.match(message, /will not be restarted automatically/);
  assert.match(message, /Set "ppn\.server\.path" to a working ppn-ls executable/);
  assert.match(message, /"PPN Language Server" output/);
});

test('a server that stops while in use says how it ended', () => {
  const killed = serverFailureMessage({
    command: '/ext/server/ppn-ls',
    source: 'bundled',
    wasRunning: true,
    exit: { code: null, signal: 'SIGSEGV' },
  });
  assert.match(killed, /stopped: the ppn-ls bundled with this extension "\/ext\/server\/ppn-ls" was killed by SIGSEGV\./);
  const unknown = serverFailureMessage({ command: '/usr/bin/ppn-ls', source: 'path', wasRunning: true });
  assert.match(unknown, /stopped: ppn-ls, found on PATH, "\/usr\/bin\/ppn-ls" closed its connection\./);
});

test('a server that cannot be spawned gives the reason', () => {
  const message = serverFailureMessage({
    command: '/opt/ppn-ls',
    source: 'setting',
    wasRunning: false,
    reason: 'spawn EACCES',
  });
  assert.match(message, /could not start: .* "\/opt\/ppn-ls" failed: spawn EACCES\./);
  assert.match(message, /ppn\.server\.path/);
});
