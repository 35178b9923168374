// Mounted once by the shell. The dialogs' code (Radix Dialog, focus trap, scroll lock) downloads the
// first time one of them opens, not with the first page (issue 14: the initial route loads only what it
// shows); once needed it stays mounted so that later dialogs open at once.
import { lazy, Suspense, useState } from 'react';
import { useDialogs } from '#client/lib/dialogs.ts';

const Dialogs = lazy(() => import('./dialogs').then((m) => ({ default: m.Dialogs })));

export function DialogHost() {
  const state = useDialogs();
  const open = state.login || !!state.notification || !!state.confirm || !!state.validation;
  const [needed, setNeeded] = useState(false);
  if (open && !needed) setNeeded(true);
  if (!needed && !open) return null;
  return (
    <Suspense fallback={null}>
      <Dialogs />
    </Suspense>
  );
}
