// Copies the game viewer (server/assets/viewer/viewer.js and viewer.css, shared with the
// one-file game and the web page) into media/viewer/, from where the board panel reads it
// and the .vsix carries it. Run by `npm run compile`.

import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const extensionRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const from = resolve(extensionRoot, '..', '..', 'server', 'assets', 'viewer');
const to = join(extensionRoot, 'media', 'viewer');
mkdirSync(to, { recursive: true });
for (const name of ['viewer.js', 'viewer.css']) {
  copyFileSync(join(from, name), join(to, name));
}
