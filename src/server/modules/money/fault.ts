// Crash injection for the recovery tests: with NODE_ENV=test and MONEY_FAULT_POINT naming a point, the
// process kills itself there with SIGKILL (no cleanup, no finally), as a power cut would. Nothing else
// can turn it on.
import type { AppContext } from '../../context';
import type { Env } from '../../env';

export function faultPoint(ctx: AppContext, name: NonNullable<Env['MONEY_FAULT_POINT']>) {
  if (ctx.env.NODE_ENV === 'test' && ctx.env.MONEY_FAULT_POINT === name) process.kill(process.pid, 'SIGKILL');
}
