// The languages ppn-ls serves in VS Code: PPN and xiangqi-setup's formats. Kept free of
// the `vscode` module so that it can be unit-tested with plain Node.

/** Language ids, as contributed in package.json. */
export const SERVED_LANGUAGES = ['ppn', 'otn', 'annofen', 'xay', 'xiangqi-fen', 'wxf'] as const;

export function isServedLanguage(languageId: string): boolean {
  return (SERVED_LANGUAGES as readonly string[]).includes(languageId);
}
