// A static server for the built page on a free port of 127.0.0.1, and how the tests start
// Chromium (Debian's, headless; no network of its own).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

export function serve(folder) {
  return new Promise((resolve) => {
    const server = createServer(async (request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      const file = join(folder, path.endsWith('/') ? path + 'index.html' : path);
      try {
        const body = await readFile(file);
        response.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
        response.end(body);
      } catch {
        response.writeHead(404);
        response.end('not found');
      }
    });
    server.listen(0, '127.0.0.1', () => {
      server.url = `http://127.0.0.1:${server.address().port}/`;
      resolve(server);
    });
  });
}

export function launchOptions() {
  return {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // A page from file:// may start workers from blobs it made.
      '--allow-file-access-from-files',
    ],
  };
}
