// The one-file game (`ppn-ls render --format html`): unpacks the games and their pictures
// that the file carries (gzip, base64) and shows them in the viewer. Nothing is fetched.
(function () {
  'use strict';
  const main = document.getElementById('ppn-game');
  const packed = document.getElementById('ppn-game-data');

  function fail(message) {
    const note = document.createElement('p');
    note.className = 'ppn-error';
    note.textContent = message;
    main.append(note);
  }

  async function unpack(base64) {
    const bytes = Uint8Array.from(atob(base64.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(stream).text());
  }

  if (typeof DecompressionStream === 'undefined') {
    fail('This browser is too old to show the game (it lacks DecompressionStream).');
    return;
  }
  unpack(packed.textContent).then((data) => {
    // The pictures were drawn from the side the file opens on, then from the other.
    // Each board's squares, `[name, pieces, left, top, width, height]` a square, as the
    // viewer takes them; the board as text is its occupied squares, as ppn-ls lists them.
    const grid = (game, ref, flipped) => {
      const rows = data.grids && data.grids[game][ref][flipped ? 1 : 0];
      if (!rows) return null;
      const squares = rows.map((row) => row.map(([name, pieces, left, top, width, height]) =>
        ({ name, pieces, left, top, width, height })));
      const text = [].concat(...squares).filter((square) => square.pieces.length)
        .map((square) => square.name + ': ' + square.pieces.join('; on '));
      return { rows: squares, text };
    };
    const viewer = new PpnViewer(main, {
      games: data.games,
      picture: (game, ref, flipped) => data.pictures[game][ref][flipped ? 1 : 0],
      grid,
      change: (game, ref) => (data.words ? data.words[game][ref] : ''),
    }, { keys: document });
    // `#3` or `#2:3`: a state of the first or of a numbered game (games from 1, states from
    // 0, as the move list counts them); else where the file was made to open.
    const wanted = /^#(?:(\d+):)?(\d+)$/.exec(location.hash);
    if (wanted) {
      viewer.show(wanted[1] ? Number(wanted[1]) - 1 : 0, Number(wanted[2]));
    } else if (data.start) {
      viewer.showRef(data.start.game, data.start.ref);
    }
    window.ppnViewer = viewer;
  }, (error) => fail('The game in this file cannot be read: ' + error));
})();
