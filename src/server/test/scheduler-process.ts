// One auto-topup scheduler as a process of its own, on the DATABASE_URL of the environment, for the test
// of several instances on one PostgreSQL. Its clock is the test's: each stdin line `tick <epoch ms>` runs
// the scheduler once at that instant and answers `done <slots handled>`; `exit` closes it.
import readline from 'node:readline';
import { openRuntime } from '../bootstrap';
import { loadEnv } from '../env';
import { runDueSlots } from '../modules/auto-topup/scheduler.service';

const runtime = await openRuntime(loadEnv(), { inMemory: true });
let clock = new Date();
const ctx = { ...runtime.ctx, now: () => clock };
console.log('ready');
for await (const line of readline.createInterface({ input: process.stdin })) {
  const [command, arg] = line.trim().split(' ');
  if (command === 'exit') break;
  if (command !== 'tick') continue;
  clock = new Date(Number(arg));
  try {
    console.log(`done ${JSON.stringify(await runDueSlots(ctx))}`);
  } catch (err) {
    console.log(`error ${(err as Error).message.replace(/\n/g, ' ')}`);
  }
}
await runtime.close();
process.exit(0);
