// Writes a long PPN game for the benchmarks: chess on a piecepack, the knights going out
// and back, `MOVES` moves (10,000 by default), a numbered pair a line.
//
//   node web/bench/long-game.mjs /tmp/long-10k.ppn [MOVES]
import { writeFileSync } from 'node:fs';

const [path, count = '10000'] = process.argv.slice(2);
if (!path) {
  console.error('usage: node web/bench/long-game.mjs OUT.ppn [MOVES]');
  process.exit(2);
}
const cycle = ['b1-c3', 'b8-c6', 'c3-b1', 'c6-b8'];
const lines = ['---', 'GameType: Chess', '...'];
for (let move = 0; move < Number(count); move += 2) {
  const number = move / 2 + 1;
  const pair = [`${number}. ${cycle[move % 4]}`];
  if (move + 1 < Number(count)) pair.push(`${number}... ${cycle[(move + 1) % 4]}`);
  lines.push(pair.join(' '));
}
writeFileSync(path, lines.join('\n') + '\n');
console.log(`${path}: ${count} moves`);
