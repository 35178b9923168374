// One value per app context (a service's caches, its gate), made on the first call for that context and
// gone with it: a test app's caches never serve another app built in the same process.
import type { AppContext } from '../context';

export function perContext<T>(make: (ctx: AppContext) => T): (ctx: AppContext) => T {
  const values = new WeakMap<AppContext, T>();
  return (ctx) => {
    let value = values.get(ctx);
    if (value === undefined) values.set(ctx, (value = make(ctx)));
    return value;
  };
}
