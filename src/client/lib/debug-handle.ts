// A console handle on the running app, for support and for the browser journeys (which drive the
// real API client and dialogs through it). It grants nothing a script on the page lacks already:
// the same fetch with the same cookies.
import { api } from './api';
import { confirm, notify } from './dialogs';

export interface DebugHandle {
  buildId: string;
  api: typeof api;
  confirm: typeof confirm;
  notify: typeof notify;
}

declare global {
  interface Window {
    __directoryApp?: DebugHandle;
  }
}

export function installDebugHandle(): void {
  window.__directoryApp = { buildId: import.meta.env.VITE_BUILD_ID, api, confirm, notify };
}
