import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LaunchInputs,
  ignoredSettingsMessage,
  ignoredWorkspaceSettings,
  launchSettings,
  sameLaunchSettings,
} from '../../src/launchSettings';

const folderSetsBoth: LaunchInputs = {
  trusted: false,
  effective: { path: './tools/run-me', args: ['--evil'] },
  inspected: {
    path: { defaultValue: '', globalValue: '~/.cargo/bin/ppn-ls', workspaceValue: './tools/run-me' },
    args: { defaultValue: [], workspaceFolderValue: ['--evil'] },
  },
};

test("an untrusted workspace gets the user's values, else the defaults", () => {
  assert.deepEqual(launchSettings(folderSetsBoth), { path: '~/.cargo/bin/ppn-ls', args: [] });
  assert.deepEqual(ignoredWorkspaceSettings(folderSetsBoth), ['ppn.server.path', 'ppn.server.args']);
});

test('a trusted workspace gets the effective values, and nothing is ignored', () => {
  const trusted = { ...folderSetsBoth, trusted: true };
  assert.deepEqual(launchSettings(trusted), { path: './tools/run-me', args: ['--evil'] });
  assert.deepEqual(ignoredWorkspaceSettings(trusted), []);
});

test('values of the wrong type count as unset', () => {
  const odd: LaunchInputs = {
    trusted: true,
    effective: { path: 42, args: ['--a', 7, '--b'] },
    inspected: { path: undefined, args: undefined },
  };
  assert.deepEqual(launchSettings(odd), { path: '', args: ['--a', '--b'] });
  assert.deepEqual(launchSettings({ ...odd, trusted: false }), { path: '', args: [] });
});

test('launch settings compare by value', () => {
  assert.equal(sameLaunchSettings(undefined, { path: '', args: [] }), false);
  assert.equal(sameLaunchSettings({ path: 'a', args: ['x'] }, { path: 'a', args: ['x'] }), true);
  assert.equal(sameLaunchSettings({ path: 'a', args: ['x'] }, { path: 'a', args: ['x', 'y'] }), false);
  assert.equal(sameLaunchSettings({ path: 'a', args: [] }, { path: 'b', args: [] }), false);
});

test('the message names the settings ignored', () => {
  assert.match(ignoredSettingsMessage(['ppn.server.path']), /sets "ppn\.server\.path" in its own settings; it is ignored/);
});
