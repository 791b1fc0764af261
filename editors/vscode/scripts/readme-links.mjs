// How `vsce package` treats the README's relative links (the board panel's picture). A
// README's pictures show only at absolute https addresses: on the Marketplace, on Open VSX
// and in VS Code's page of an installed .vsix alike (VS Code does not resolve a relative
// picture against the extension's folder; the end-to-end test saw it broken). vsce writes
// them when it knows the repository on GitHub: PPN_REPOSITORY_URL
// (https://github.com/OWNER/REPO), else GitHub Actions' own variables, else the manifest's
// `repository`; at PPN_REPOSITORY_REF, else the commit built, else HEAD. Knowing none, the
// links stay relative (a build for development: its page shows no picture).

/** The extension's folder in the repository, where its README's links start. */
const EXTENSION_FOLDER = 'editors/vscode';

/** The `vsce package` options for the README's links, for this environment. */
export function readmeLinkArguments(env = process.env, manifest = undefined) {
  const declared = typeof manifest?.repository === 'string' ? manifest.repository : manifest?.repository?.url;
  const repository =
    env.PPN_REPOSITORY_URL ||
    (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}` : '') ||
    (declared ?? '').replace(/^git\+/, '');
  if (!repository) {
    return ['--no-rewrite-relative-links'];
  }
  const base = repository.replace(/\.git$/, '').replace(/\/+$/, '');
  const ref = env.PPN_REPOSITORY_REF || env.GITHUB_SHA || 'HEAD';
  return [
    '--baseContentUrl',
    `${base}/blob/${ref}/${EXTENSION_FOLDER}/`,
    '--baseImagesUrl',
    `${base}/raw/${ref}/${EXTENSION_FOLDER}/`,
  ];
}
