import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api';
import { dialogStore } from './dialogs';
import { registerNavigator } from './navigation';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const resetDialogs = () => dialogStore.set({ notification: null, validation: null, confirm: null, login: false });

describe('api error catalogue', () => {
  const navigate = vi.fn();
  beforeEach(() => {
    resetDialogs();
    navigate.mockReset();
    registerNavigator(navigate);
  });
  afterEach(() => vi.unstubAllGlobals());

  const respond = (response: Response) => {
    const fetchMock = vi.fn(async () => response);
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  };

  it('shows a 422 in the validation dialog', async () => {
    const body = {
      message: 'Please check what you entered.',
      errors: { country: ['Use lowercase letters and hyphens only.'] },
    };
    respond(json(422, body));
    await expect(api('/directory/getDirectory', { method: 'POST', body: {} })).rejects.toBeInstanceOf(ApiError);
    expect(dialogStore.get().validation).toEqual(body);
  });

  it('opens the login modal on 401 unless the caller handles it', async () => {
    respond(json(401, { message: 'Unauthenticated.' }));
    await expect(api('/app/getData/x', { method: 'POST' })).rejects.toMatchObject({ status: 401 });
    expect(dialogStore.get().login).toBe(true);

    resetDialogs();
    respond(json(401, { message: 'Unauthenticated.' }));
    await expect(api('/app/getData/x', { method: 'POST', handle: [401] })).rejects.toMatchObject({ status: 401 });
    expect(dialogStore.get().login).toBe(false);
  });

  it('goes to page-not-found on 404', async () => {
    respond(json(404, { message: 'Profile not found.' }));
    await expect(api('/getProfile/1')).rejects.toMatchObject({ status: 404 });
    expect(navigate).toHaveBeenCalledWith('/page-not-found', { replace: true });
  });

  it('shows the message of a 403 or 429 as an error notice, as plain text', async () => {
    respond(json(429, { message: 'Too many <requests>.' }));
    await expect(api('/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 429 });
    const notice = dialogStore.get().notification?.options;
    expect(notice?.icon).toBe('error');
    expect(notice?.message).toBe('Too many <requests>.');
    expect(notice?.html).toBeFalsy();
  });

  it('raises the notification dialog for a type notification body and still returns it', async () => {
    const body = { type: 'notification', message: '<b>Saved</b>', path: '/countries' };
    respond(json(200, body));
    await expect(api('/update', { method: 'POST', body: {} })).resolves.toEqual(body);
    expect(dialogStore.get().notification?.options).toMatchObject({ message: '<b>Saved</b>', path: '/countries' });
    // Not marked as HTML: the dialog shows the tags as text.
    expect(dialogStore.get().notification?.options.html).toBeFalsy();
  });

  it('passes on a notification the server marked as HTML', async () => {
    const body = { type: 'notification', message: '<b>Saved</b>', html: true };
    respond(json(200, body));
    await api('/update', { method: 'POST', body: {} });
    expect(dialogStore.get().notification?.options).toMatchObject({ message: '<b>Saved</b>', html: true });
  });

  it('sends JSON under /api with the page query and same-origin credentials', async () => {
    const fetchMock = respond(json(200, { data: [] }));
    await api('/directory/getDirectory', { method: 'POST', query: { page: 2 }, body: { country: 'spain' } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/directory/getDirectory?page=2');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"country":"spain"}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('echoes the csrf cookie in the x-csrf-token header', async () => {
    vi.stubGlobal('document', { cookie: 'sid=abc; csrf=tok%3D1' });
    const fetchMock = respond(json(200, {}));
    await api('/auth/logout', { method: 'POST' });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('tok=1');
  });
});
