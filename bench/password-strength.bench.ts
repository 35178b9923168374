// How long can one new password hold the request thread in the strength estimate (zxcvbn-ts)?
// Hostile shapes (repeats, l33t characters, long passphrases) at 16 to 128 characters; prints the median
// and the worst of each, and the word lists' load time. docs/decisions/0807.
//
//   npx tsx bench/password-strength.bench.ts [--rounds 5]
import { parseArgs } from 'node:util';
import { passwordProblem } from '../src/server/modules/auth/password-policy';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);

let start = performance.now();
passwordProblem('warm up the word lists');
console.log(`first estimate (loads the word lists): ${(performance.now() - start).toFixed(0)} ms`);

const shapes: Record<string, string> = {
  repeat: 'a'.repeat(128),
  pattern: 'abcabc123'.repeat(15),
  mixed: Array.from({ length: 128 }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join(''),
  l33t: '4@3$1!0(7+'.repeat(13),
  leet_words: 'p4ssw0rd'.repeat(16),
  passphrase: 'correct horse battery staple '.repeat(5),
};

let worst = 0;
for (const [name, base] of Object.entries(shapes)) {
  for (const length of [16, 40, 128]) {
    const times: number[] = [];
    for (let r = 0; r < rounds; r++) {
      start = performance.now();
      passwordProblem(base.slice(0, length));
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    worst = Math.max(worst, times[times.length - 1]);
    console.log(
      `${name.padEnd(11)} ${String(length).padStart(3)} chars: median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, worst ${times[times.length - 1].toFixed(1)} ms`,
    );
  }
}
console.log(`worst of all: ${worst.toFixed(1)} ms`);
