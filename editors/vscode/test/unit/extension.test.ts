import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { installFakeVscode } from './fakeVscode';

const fake = installFakeVscode();
// Loaded after the fake is installed, so that it sees it as `vscode`.
const extension = require('../../src/extension') as typeof import('../../src/extension');

const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));

test('a missing server executable is reported with a way to the setting', async () => {
  fake.settings.set('ppn.server.path', '/nonexistent/bin/ppn-ls');
  fake.errorChoice = 'Open Settings';
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  await extension.activate(context as never);
  await settle();

  assert.deepEqual([...fake.commands.keys()].sort(), ['ppn.restartServer', 'ppn.showBoard']);
  assert.equal(fake.errorMessages.length, 1);
  const [{ message, items }] = fake.errorMessages;
  assert.match(message, /"\/nonexistent\/bin\/ppn-ls" does not exist or is not executable/);
  assert.match(message, /ppn\.server\.path/);
  assert.deepEqual(items, ['Open Settings', 'Show Output']);
  assert.deepEqual(fake.executedCommands, [['workbench.action.openSettings', 'ppn.server.path']]);
  assert.deepEqual(fake.outputLines, [message]);

  // Changing a server setting tries again; other settings do not.
  fake.errorChoice = undefined;
  fake.configurationChanged.fire({ affectsConfiguration: (section) => section === 'editor.fontSize' });
  await settle();
  assert.equal(fake.errorMessages.length, 1);
  fake.settings.set('ppn.server.path', '');
  const originalPath = process.env.PATH;
  process.env.PATH = '/nonexistent/empty-path';
  try {
    fake.configurationChanged.fire({ affectsConfiguration: (section) => section === 'ppn.server' });
    await settle();
  } finally {
    process.env.PATH = originalPath;
  }
  assert.equal(fake.errorMessages.length, 2);
  assert.match(fake.errorMessages[1].message, /no ppn-ls of its own and "ppn-ls" is not on PATH/);

  for (const subscription of context.subscriptions) {
    subscription.dispose();
  }
  await extension.deactivate();
});

test("an untrusted workspace's own server path and arguments are ignored until it is trusted", async () => {
  fake.errorMessages.length = 0;
  fake.outputLines.length = 0;
  fake.errorChoice = undefined;
  // An editor that hands out the folder's values even when untrusted: the extension itself
  // must keep to the user's.
  fake.trusted = false;
  fake.settings.set('ppn.server.path', '/nonexistent/folder-tool');
  fake.settings.set('ppn.server.args', ['--from-the-folder']);
  fake.inspected.set('ppn.server.path', { defaultValue: '', workspaceValue: '/nonexistent/folder-tool' });
  fake.inspected.set('ppn.server.args', { defaultValue: [], workspaceValue: ['--from-the-folder'] });
  const originalPath = process.env.PATH;
  process.env.PATH = '/nonexistent/empty-path';
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  try {
    await extension.activate(context as never);
    await settle();
    assert.equal(fake.errorMessages.length, 1);
    assert.match(fake.errorMessages[0].message, /no ppn-ls of its own and "ppn-ls" is not on PATH/);
    assert.doesNotMatch(fake.errorMessages[0].message, /folder-tool/);
    assert.match(fake.outputLines[0], /sets "ppn\.server\.path" and "ppn\.server\.args" in its own settings; they are ignored until you trust/);

    // A configuration event that changes nothing that counts starts nothing.
    fake.configurationChanged.fire({ affectsConfiguration: (section) => section.startsWith('ppn.server') });
    await settle();
    assert.equal(fake.errorMessages.length, 1);

    // Trust granted: the folder's values count, and the server is started again, once,
    // although VS Code also says the configuration changed.
    fake.trusted = true;
    fake.trustGranted.fire();
    fake.configurationChanged.fire({ affectsConfiguration: (section) => section.startsWith('ppn.server') });
    await settle();
    assert.equal(fake.errorMessages.length, 2, JSON.stringify(fake.errorMessages));
    assert.match(fake.errorMessages[1].message, /"\/nonexistent\/folder-tool" does not exist or is not executable/);
  } finally {
    process.env.PATH = originalPath;
    fake.inspected.clear();
    fake.settings.clear();
    for (const subscription of context.subscriptions) {
      subscription.dispose();
    }
    await extension.deactivate();
  }
});

test('with no executable found and no path set, the WebAssembly of the universal package serves, said once', async () => {
  fake.errorMessages.length = 0;
  fake.outputLines.length = 0;
  fake.errorChoice = undefined;
  fake.trusted = true;
  fake.settings.set('ppn.server.path', '');
  // A universal package's folder: its bundle stands in for browser.ts's.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ppn-universal-'));
  fs.mkdirSync(path.join(folder, 'dist'));
  fs.writeFileSync(
    path.join(folder, 'dist', 'web.js'),
    `let started = 0, stopped = 0;
     exports.counts = () => ({ started, stopped });
     exports.startWasmService = async (_uri, output) => {
       started++;
       output.appendLine('service started');
       return { boardSource: {}, dispose: () => { stopped++; } };
     };`,
  );
  const originalPath = process.env.PATH;
  process.env.PATH = '/nonexistent/empty-path';
  const context = { subscriptions: [] as { dispose(): unknown }[], extensionPath: folder };
  try {
    await extension.activate(context as never);
    await settle();
    assert.equal(fake.errorMessages.length, 0, JSON.stringify(fake.outputLines));
    const said = () => fake.outputLines.filter((line) => /runs as WebAssembly in the extension host instead/.test(line));
    assert.equal(said().length, 1, JSON.stringify(fake.outputLines));
    assert.match(said()[0], /"ppn\.server\.path" is empty, none on PATH/);
    const bundle = require(path.join(folder, 'dist', 'web.js')) as { counts(): { started: number; stopped: number } };
    assert.deepEqual(bundle.counts(), { started: 1, stopped: 0 });

    // Restarted: the WebAssembly again, not said again.
    await fake.commands.get('ppn.restartServer')!();
    await settle();
    assert.deepEqual(bundle.counts(), { started: 2, stopped: 1 });
    assert.equal(said().length, 1);

    // A path set that names nothing: reported, and no WebAssembly instead.
    fake.settings.set('ppn.server.path', '/nonexistent/bin/ppn-ls');
    fake.configurationChanged.fire({ affectsConfiguration: (section) => section === 'ppn.server' });
    await settle();
    assert.deepEqual(bundle.counts(), { started: 2, stopped: 2 });
    assert.equal(fake.errorMessages.length, 1);
  } finally {
    process.env.PATH = originalPath;
    fake.settings.clear();
    for (const subscription of context.subscriptions) {
      subscription.dispose();
    }
    await extension.deactivate();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
