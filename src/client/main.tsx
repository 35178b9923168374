import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
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

async function start() {
  preloadSectionFor(window.location.pathname);
  await initI18n();
  // The journeys' handle exists only in a build made for them (DIRECTORY_TEST_HOOKS=1, e2e/run.ts): the
  // constant is false in a production build, so the bundler drops the handle altogether.
  if (import.meta.env.VITE_TEST_HOOKS) installDebugHandle();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
