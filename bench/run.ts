// `npm run bench`: the directory benchmark, then the money benchmark, one after the other (at once they
// would measure each other). Every argument goes to the directory benchmark (bench/directory.bench.ts)
// but --no-money, which skips the money benchmark (bench/money.bench.ts), as --only-mix, --only-filters and --only-nearby do; --backends
// and --keep-readme go to the money benchmark too. `npm run bench:money` runs it alone, with its options.
// --only-redis-hang runs the hung-Redis benchmark alone (bench/redis-hang.bench.ts), with the other arguments.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const given = process.argv.slice(2);
const { values } = parseArgs({
  args: given,
  strict: false,
  options: {
    backends: { type: 'string' },
    'keep-readme': { type: 'boolean' },
    'only-mix': { type: 'boolean' },
    'only-filters': { type: 'boolean' },
    'only-nearby': { type: 'boolean' },
    'no-money': { type: 'boolean' },
    'only-redis-hang': { type: 'boolean' },
  },
});
const runs: Array<[string, string[]]> = [['bench/directory.bench.ts', given.filter((a) => a !== '--no-money')]];
if (!values['no-money'] && !values['only-mix'] && !values['only-filters'] && !values['only-nearby'])
  runs.push([
    'bench/money.bench.ts',
    [
      ...(typeof values.backends === 'string' ? ['--backends', values.backends] : []),
      ...(values['keep-readme'] ? ['--keep-readme'] : []),
    ],
  ]);

if (values['only-redis-hang'])
  runs.splice(0, runs.length, ['bench/redis-hang.bench.ts', given.filter((a) => a !== '--only-redis-hang')]);

for (const [file, args] of runs) {
  const res = spawnSync(process.execPath, [tsx, file, ...args], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
