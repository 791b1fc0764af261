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

/**
 * Serves `folder` at `base` (`/` by default; `/ppn-ls/` as GitHub Pages serves a project's
 * page): anything outside `base` is not found, as on Pages. Every request is noted in
 * `server.requests` (`{ path, status }`), so that a test can see what a page asked for.
 */
export function serve(folder, { base = '/' } = {}) {
  return new Promise((resolve) => {
    const requests = [];
    const server = createServer(async (request, response) => {
      const pathname = decodeURIComponent(new URL(request.url, 'http://x').pathname);
      const answer = (status, headers = {}, body = 'not found') => {
        requests.push({ path: pathname, status });
        response.writeHead(status, headers);
        response.end(body);
      };
      if (!pathname.startsWith(base)) {
        return answer(404);
      }
      const path = normalize(pathname.slice(base.length - 1)).replace(/^(\.\.[/\\])+/, '');
      const file = join(folder, path.endsWith('/') ? path + 'index.html' : path);
      try {
        const body = await readFile(file);
        answer(200, { 'content-type': types[extname(file)] || 'application/octet-stream' }, body);
      } catch {
        answer(404);
      }
    });
    server.listen(0, '127.0.0.1', () => {
      server.url = `http://127.0.0.1:${server.address().port}${base}`;
      server.requests = requests;
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
