// Modules that scripts/build-web-extension.mjs makes for the browser bundle: ppn-ls's
// WebAssembly glue (wasm-bindgen's, each call a fresh copy with an instance of its own) and
// the board viewer's files as text.

declare module 'ppn-ls-wasm-factory' {
  export function makeGlue(): {
    initSync(options: { module: unknown }): unknown;
    Session: new () => object;
    token_kinds(): string[];
  };
}

declare module 'ppn-viewer-assets' {
  export const viewerScript: string;
  export const viewerStyle: string;
}

declare namespace WebAssembly {
  function compile(bytes: Uint8Array): Promise<unknown>;
}
