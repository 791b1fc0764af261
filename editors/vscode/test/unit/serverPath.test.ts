import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bundledServerPath,
  chooseServer,
  normalizeConfiguredPath,
  resolveServerPath,
  serverNotFoundMessage,
} from '../../src/serverPath';

function only(...files: string[]): (candidate: string) => boolean {
  const existing = new Set(files);
  return (candidate) => existing.has(candidate);
}

test('an empty setting means ppn-ls, and ~ is the home directory', () => {
  assert.equal(normalizeConfiguredPath(undefined, {}), 'ppn-ls');
  assert.equal(normalizeConfiguredPath('   ', {}), 'ppn-ls');
  assert.equal(normalizeConfiguredPath('~/.cargo/bin/ppn-ls', { HOME: '/home/ada' }), '/home/ada/.cargo/bin/ppn-ls');
  assert.equal(normalizeConfiguredPath('~bob/ppn-ls', { HOME: '/home/ada' }), '~bob/ppn-ls');
});

test('a bare name is looked up on PATH in order', () => {
  const resolved = resolveServerPath('ppn-ls', {
    env: { PATH: '/usr/bin::/home/ada/.cargo/bin:/opt/bin' },
    platform: 'linux',
    isExecutableFile: only('/home/ada/.cargo/bin/ppn-ls', '/opt/bin/ppn-ls'),
  });
  assert.equal(resolved, '/home/ada/.cargo/bin/ppn-ls');
});

test('a missing executable resolves to undefined', () => {
  const resolved = resolveServerPath(undefined, {
    env: { PATH: '/usr/bin:/bin' },
    platform: 'linux',
    isExecutableFile: only('/usr/bin/other'),
  });
  assert.equal(resolved, undefined);
});

test('a relative path starts at the workspace folder, an absolute one is taken as it is', () => {
  const environment = {
    env: { PATH: '/usr/bin' },
    platform: 'linux' as const,
    baseDirectory: '/work/games',
    isExecutableFile: only('/work/games/target/debug/ppn-ls', '/opt/ppn-ls'),
  };
  assert.equal(resolveServerPath('./target/debug/ppn-ls', environment), '/work/games/target/debug/ppn-ls');
  assert.equal(resolveServerPath('/opt/ppn-ls', environment), '/opt/ppn-ls');
  assert.equal(resolveServerPath('/usr/bin/ppn-ls', environment), undefined);
});

test('on Windows PATH is case-insensitive and PATHEXT extensions are tried', () => {
  const resolved = resolveServerPath('ppn-ls', {
    env: { Path: 'C:\\Tools;C:\\Users\\ada\\.cargo\\bin', PATHEXT: '.COM;.EXE' },
    platform: 'win32',
    isExecutableFile: only('C:\\Users\\ada\\.cargo\\bin\\ppn-ls.exe'),
  });
  assert.equal(resolved, 'C:\\Users\\ada\\.cargo\\bin\\ppn-ls.exe');
});

test('the not-found message names the setting and the missing command', () => {
  const onPath = serverNotFoundMessage(undefined, {});
  assert.match(onPath, /"ppn-ls" is not on PATH/);
  assert.match(onPath, /ppn\.server\.path/);
  const configured = serverNotFoundMessage('/opt/ppn-ls', {});
  assert.match(configured, /"\/opt\/ppn-ls" does not exist or is not executable/);
});

test('with the setting empty, the bundled server comes first, then PATH', () => {
  const environment = {
    env: { PATH: '/usr/bin:/home/ada/.cargo/bin' },
    platform: 'linux' as const,
    bundledServer: bundledServerPath('/ext/ppn-ls.ppn-0.1.0-linux-x64', 'linux'),
    isExecutableFile: only('/ext/ppn-ls.ppn-0.1.0-linux-x64/server/ppn-ls', '/home/ada/.cargo/bin/ppn-ls'),
  };
  assert.deepEqual(chooseServer('', environment), {
    command: '/ext/ppn-ls.ppn-0.1.0-linux-x64/server/ppn-ls',
    source: 'bundled',
  });
  assert.deepEqual(chooseServer(undefined, environment)?.source, 'bundled');
  // A setting, even the bare name, is what the user asked for.
  assert.deepEqual(chooseServer('ppn-ls', environment), { command: '/home/ada/.cargo/bin/ppn-ls', source: 'setting' });
  // A generic .vsix has no server of its own.
  const withoutBundle = { ...environment, isExecutableFile: only('/home/ada/.cargo/bin/ppn-ls') };
  assert.deepEqual(chooseServer('', withoutBundle), { command: '/home/ada/.cargo/bin/ppn-ls', source: 'path' });
  assert.equal(chooseServer('', { ...environment, isExecutableFile: only() }), undefined);
  assert.equal(bundledServerPath('C:\\ext', 'win32'), 'C:\\ext\\server\\ppn-ls.exe');
});

test('an empty setting that finds nothing says that there is no bundled server either', () => {
  const message = serverNotFoundMessage('', {});
  assert.match(message, /this extension has no ppn-ls of its own and "ppn-ls" is not on PATH/);
  assert.match(message, /ppn\.server\.path/);
});
