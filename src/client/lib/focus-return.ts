// Focus back to the opener when a dialog closes (issue 23, item 12). Radix Dialog returns the focus to
// its Dialog.Trigger only, and overrides its focus scope's own return to do so; our dialogs open from a
// store (profile modal, confirm, notification) or a thumbnail, without a Trigger, so the focus fell to
// the body and a keyboard or screen-reader user started again at the top of the page.
import { useState } from 'react';

function activeElement(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  const el = document.activeElement;
  return el instanceof HTMLElement && el !== document.body ? el : null;
}

/**
 * The element that had the focus when `open` became true (read as the dialog first renders open, before
 * its focus scope moves the focus in), and the handler for Dialog.Content's onCloseAutoFocus that gives
 * it back. An opener gone meanwhile (a list re-rendered) leaves the focus where the browser puts it.
 */
export function useReturnFocus(open: boolean): (event: Event) => void {
  const [state, setState] = useState(() => ({ open, opener: open ? activeElement() : null }));
  if (state.open !== open) setState({ open, opener: open ? activeElement() : state.opener });
  return (event) => {
    const opener = state.opener;
    if (!opener?.isConnected) return;
    event.preventDefault();
    opener.focus({ preventScroll: true });
  };
}
