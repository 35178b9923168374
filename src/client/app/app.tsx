import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { Spinner } from '#client/components/spinner.tsx';
import { i18n } from '#client/lib/i18n.ts';
import { createQueryClient } from '#client/lib/query-client.ts';
import { AppRoutes } from './router';

/** Exported for the start-up, which seeds it with the answers the server's page carries. */
export const queryClient = createQueryClient();
// Answers name cities and countries in the page's language (x-language): after a switch, what is on the
// screen is asked for again in the new one.
i18n.on('languageChanged', () => void queryClient.invalidateQueries());

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          {/* A language switch may suspend above the shell's own boundary. */}
          <Suspense fallback={<Spinner />}>
            <AppRoutes />
          </Suspense>
        </BrowserRouter>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
