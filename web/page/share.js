// A game in a link: the document, compressed (deflate), in the address's fragment, which
// browsers never send to a server; with the game and move shown.
//   #v=1&f=NAME&g=GAME&m=STATE&d=BASE64URL   (STATE: the `ref` of the state shown)
function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function through(bytes, stream) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

export async function encodeShared({ name, text, game, ref }) {
  const packed = await through(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  const fields = new URLSearchParams({ v: '1', f: name, g: String(game), m: String(ref) });
  return fields.toString() + '&d=' + toBase64Url(packed);
}

/** The shared game, or null if the fragment is not one. */
export async function decodeShared(fragment) {
  const fields = new URLSearchParams(fragment);
  if (fields.get('v') !== '1' || !fields.has('d')) return null;
  const bytes = await through(fromBase64Url(fields.get('d')), new DecompressionStream('deflate-raw'));
  return {
    name: fields.get('f') || 'game.ppn',
    text: new TextDecoder().decode(bytes),
    game: Number(fields.get('g')) || 0,
    ref: Number(fields.get('m')) || 0,
  };
}
