import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SSR_STATE_ID, type SsrQuery } from '#shared/views/ssr-state.ts';
import { App, queryClient } from './app/app';
import { preloadSectionFor } from './app/sections';
import { installDebugHandle } from './lib/debug-handle';
import { initI18n } from './lib/i18n';
import './styles.css';

// Every visible string goes through t(), so nothing renders before the common catalogues are
// there; the first screen's section downloads meanwhile.
// The CSP nonce the server gave this page: libraries that write <style> elements at run time (the
// dialogs' scroll lock) read it as __webpack_nonce__ (get-nonce), so the CSP needs no inline exception.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce) (window as unknown as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;

/**
 * The answers the server's page carries (docs/decisions/0705) into the query cache, so that the first
 * render shows the screen already on display instead of placeholders that fill in and push things down.
 */
function seedQueries() {
  const element = document.getElementById(SSR_STATE_ID);
  if (!element?.textContent) return;
  try {
    for (const { key, data, stale } of JSON.parse(element.textContent) as SsrQuery[])
      queryClient.setQueryData(key, data, stale ? { updatedAt: 0 } : undefined);
  } catch {
    // A page without usable state renders as any other: the screen asks for its data.
  }
  element.remove();
}

async function start() {
  // The server's first screen stays up until the app can draw the same screen in one go: its
  // section, texts and data all there (the section is rendered directly once loaded, route-screen).
  await Promise.all([preloadSectionFor(window.location.pathname), initI18n()]);
  seedQueries();
  // The journeys' handle exists only in a build made for them (DIRECTORY_TEST_HOOKS=1, e2e/run.ts): the
  // constant is false in a production build, so the bundler drops the handle altogether.
  if (import.meta.env.VITE_TEST_HOOKS) installDebugHandle();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // A transition: React renders the screen in slices of a few milliseconds instead of one long task,
  // so the phone stays responsive meanwhile (TBT, issue 14); the server's screen shows until it commits.
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}

void start();
