// Shared steps of the directory journeys (directory-*.journey.ts). Not a journey itself: the runner
// loads *.journey.ts only.
import assert from 'node:assert/strict';
import type { Page, Response } from 'playwright-core';

export interface Country {
  code: string;
  slug: string;
  name: string;
  count: number;
}

export interface ListItem {
  id: number;
  name: string;
  user: { city: string | null; place: string | null; profile: string | null };
}

/**
 * esbuild's keepNames (tsx) wraps named functions in __name(...): should these files be compiled that way
 * (Playwright's own transform does not), functions sent to the page (evaluate, addInitScript) need it there.
 */
export async function pageHelpers(page: Page): Promise<void> {
  await page.addInitScript('window.__name = window.__name || ((fn) => fn);');
}

/** The 18+ notice is its own journey; the others start as a visitor who accepted it before. */
export async function acceptedNotice(page: Page): Promise<void> {
  await pageHelpers(page);
  await page.addInitScript(() => window.localStorage.setItem('adult-notice', 'accepted'));
}

export async function busiestCountry(page: Page, baseUrl: string): Promise<Country> {
  const res = await page.request.get(`${baseUrl}/api/directory/countries`);
  const { data } = (await res.json()) as { data: Country[] };
  const top = [...data].sort((a, b) => b.count - a.count)[0];
  assert.ok(top, 'the seed lists at least one country');
  return top;
}

export const isDirectoryPage = (page: number) => (r: Response) =>
  r.url().includes(`/api/directory/getDirectory?page=${page}`) && r.request().method() === 'POST';

/**
 * Page 1 of a list as the server's first HTML carries it to the SPA (docs/decisions/0705): the
 * `list` entry of <script id="ssr-state">, or null when the page carries none.
 */
export function ssrListPage(html: string): { data: ListItem[] } | null {
  const json = /<script type="application\/json" id="ssr-state">(.*?)<\/script>/s.exec(html)?.[1];
  if (!json) return null;
  const state = JSON.parse(json) as Array<{ key: unknown[]; data: { pages?: Array<{ data: ListItem[] }> } }>;
  return state.find((q) => q.key[1] === 'list' || q.key[1] === 'search')?.data.pages?.[0] ?? null;
}

/**
 * Opens a list and waits for its first page; returns the items of page 1. A page loaded from the server
 * brings page 1 with its HTML; otherwise the SPA asks for it.
 */
export async function openList(page: Page, baseUrl: string, path: string): Promise<ListItem[]> {
  // Caught: when the page brings the list, this wait only times out, unobserved.
  const asked = page.waitForResponse(isDirectoryPage(1)).catch(() => null);
  const document = await page.goto(`${baseUrl}${path}`);
  const carried = document ? ssrListPage(await document.text()) : null;
  const body = carried ?? ((await (await asked)?.json()) as { data: ListItem[] } | undefined);
  assert.ok(body, `page 1 of ${path} arrived`);
  await page.getByTestId('profile-card').first().waitFor();
  await appTookOver(page);
  return body.data;
}

/**
 * The SPA has replaced the server's first HTML (#ssr). The server's cards are the same markup with plain
 * links: a click before this is a page load, not the profile modal.
 */
export async function appTookOver(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.getElementById('ssr'));
}

/** A one-finger horizontal swipe over the profile modal: dx > 0 is a swipe to the right. */
export async function swipe(page: Page, dx: number): Promise<void> {
  await page.evaluate((distance) => {
    const target = document.querySelector('[data-testid="profile-modal"] .profile-modal__body') as HTMLElement;
    const touch = (x: number) => new Touch({ identifier: 1, target, clientX: x, clientY: 400 });
    const startX = distance > 0 ? 40 : 330;
    target.dispatchEvent(
      new TouchEvent('touchstart', {
        touches: [touch(startX)],
        changedTouches: [touch(startX)],
        bubbles: true,
        cancelable: true,
      }),
    );
    target.dispatchEvent(
      new TouchEvent('touchend', {
        touches: [],
        changedTouches: [touch(startX + distance)],
        bubbles: true,
        cancelable: true,
      }),
    );
  }, dx);
}

export async function waitForModalProfile(page: Page, id: number): Promise<void> {
  await page.locator(`[data-testid="profile-modal"] [data-testid="profile"][data-id="${id}"]`).waitFor();
}
