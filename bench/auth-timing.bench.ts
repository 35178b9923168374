// Does forgotPassword answer a known address as fast as an unknown one? (A difference would tell an
// attacker which addresses have accounts.) Runs the real app in process on PGlite and prints medians.
//
//   npx tsx bench/auth-timing.bench.ts [--rounds 50]
import { parseArgs } from 'node:util';
import { createTestApp } from '../src/server/test/helpers';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '50' } } });
const rounds = Number(values.rounds);
const t = await createTestApp({ LOG_LEVEL: 'silent' });
const email = 'bench-user@example.test';
const reg = await t.app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: {
    email,
    username: 'benchuser',
    password: 'a long bench passphrase',
    date_of_birth: '1990-01-01',
    terms: true,
  },
});
if (reg.statusCode !== 200) throw new Error(`register failed: ${reg.body}`);

const time = async (address: string, i: number) => {
  const start = process.hrtime.bigint();
  await t.app.inject({
    method: 'POST',
    url: '/api/auth/forgotPassword',
    payload: { email: address },
    remoteAddress: `10.9.${Math.floor(i / 250)}.${i % 250}`,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // Let work deferred past the answer (the reset mail) finish, so it does not land in the next timing.
  await new Promise((resolve) => setTimeout(resolve, 60));
  return ms;
};
const known: number[] = [];
const unknown: number[] = [];
for (let i = 0; i < rounds; i++) {
  await t.ctx.limiter.reset(`forgot:email:${email}`);
  known.push(await time(email, 2 * i));
  unknown.push(await time(`nobody${i}@example.test`, 2 * i + 1));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `forgotPassword over ${rounds} rounds: known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms (medians)`,
);
await t.close();
