// Shared steps of the account journeys (not a journey itself: the runner loads *.journey.ts only).
import type { Page } from 'playwright-core';

export interface TestAccount {
  id: number;
  email: string;
  username: string;
  password: string;
}

let counter = 0;

/** A fresh email, username and password (not a common one, not the username). */
export function newAccount(tag: string): Omit<TestAccount, 'id'> {
  counter += 1;
  const stamp = `${Date.now().toString(36)}${counter}`;
  return {
    email: `${tag}-${stamp}@example.test`,
    username: `${tag}_${stamp}`,
    password: `Velvet harbour lantern ${stamp}`,
  };
}

/**
 * Registers through the app's own API client (the page must have the app loaded). Registering
 * signs in; `signOut` ends that session again so the page is a visitor's.
 */
export async function registerViaApi(page: Page, tag: string, signOut = false): Promise<TestAccount> {
  const account = newAccount(tag);
  const id = await page.evaluate(
    async ({ body, signOut }) => {
      const app = window.__directoryApp!;
      const answer = await app.api<{ data: { user_id: number } }>('/auth/register', { method: 'POST', body });
      if (signOut) await app.api('/auth/logout', { method: 'POST' });
      return answer.data.user_id;
    },
    {
      body: {
        email: account.email,
        username: account.username,
        password: account.password,
        date_of_birth: '1990-04-01',
        terms: true,
      },
      signOut,
    },
  );
  return { id, ...account };
}

/** Presses OK on the notification dialog whose message matches, and waits for it to close. */
export async function acknowledge(page: Page, message: RegExp): Promise<void> {
  // This dialog, by its message: another may open right after it (the completion notice after a confirmation).
  const dialog = page.getByTestId('notification-dialog').filter({ hasText: message });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Closes the validation-error dialog after checking one of its messages. */
export async function dismissValidation(page: Page, message: RegExp): Promise<void> {
  const dialog = page.getByTestId('validation-dialog');
  await dialog.getByText(message).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await dialog.waitFor({ state: 'detached' });
}
