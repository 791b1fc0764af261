// How `vsce package` treats the README's relative links (the board panel's picture). The
// Marketplace shows a README only with absolute https links, which vsce writes when it
// knows the repository on GitHub: from PPN_REPOSITORY_URL (https://github.com/OWNER/REPO),
// else from GitHub Actions' own variables, at PPN_REPOSITORY_REF or the commit built.
// Elsewhere the links stay relative: VS Code shows a .vsix's README with its pictures from
// the .vsix itself, which carries them.

/** The extension's folder in the repository, where its README's links start. */
const EXTENSION_FOLDER = 'editors/vscode';

/** The `vsce package` options for the README's links, for this environment. */
export function readmeLinkArguments(env = process.env) {
  const repository =
    env.PPN_REPOSITORY_URL ||
    (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}` : '');
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
