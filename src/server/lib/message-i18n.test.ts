import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as } from '../test/as';
import { createAdvertiser, createSession, seedGeo } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';
import { translateBody, translateKey } from './message-i18n';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

describe('server messages in the language of the page', () => {
  it('translates the 422 heading and field errors for a German page, and leaves English alone', async () => {
    const directory = (headers: Record<string, string>) =>
      as(t).post('/api/directory/getDirectory', { category: 'female' }, { headers });
    expect((await directory({ 'x-language': 'de' })).json()).toEqual({
      message: 'Bitte prüfe deine Eingaben.',
      errors: { country: ['Country darf nicht leer sein!'] },
    });
    expect((await directory({})).json()).toEqual({
      message: 'Please check what you entered.',
      errors: { country: ["Country can't be blank!"] },
    });
  });

  it('translates 401/404 messages and notifications; Portuguese in its own texts', async () => {
    const unauth = await as(t).post('/api/app/getData/1', undefined, { headers: { 'x-language': 'es' } });
    expect(unauth.json()).toEqual({ message: 'No has iniciado sesión.' });
    const missing = await as(t).get('/api/getProfile/999999?lang=pt');
    expect(missing.json()).toEqual({ message: 'Perfil não encontrado.' });
    const thanks = await as(t).post(
      '/api/directory/setFeedback',
      { data: { reason: 'spam' } },
      { headers: { 'x-language': 'de' } },
    );
    expect(thanks.json()).toMatchObject({ type: 'notification', message: 'Danke für deine Rückmeldung.' });
  });

  it('does not touch data responses', async () => {
    const { account } = await createAdvertiser(t.ctx, { screenName: 'Not found.' });
    const s = await createSession(t.ctx, account.id);
    const res = await as(t, s).get(`/api/getProfile/${account.id}`, { headers: { 'x-language': 'de' } });
    expect(res.json().profile.screen_name).toBe('Not found.');
  });

  it('fills the wait of a rate limit in the plural form of the language, and leaves other strings alone', () => {
    expect(translateKey({ key: 'auth.tooManyAttemptsIn', params: { count: 5 } }, 'de')).toBe(
      'Zu viele Versuche. Bitte versuche es in 5 Minuten noch einmal.',
    );
    expect(translateKey({ key: 'auth.tooManyAttemptsIn', params: { count: 1 } }, 'es')).toBe(
      'Demasiados intentos. Inténtalo de nuevo en 1 minuto.',
    );
    // No table of English sentences any more: a plain string is data, whatever it says.
    expect(translateBody({ message: 'Not found.' }, 'de')).toEqual({ message: 'Not found.' });
  });

  it('escapes values only in a notification marked as HTML', () => {
    const body = (html?: boolean) => ({
      type: 'notification',
      message: { key: 'admin.verifiedMessage', params: { date: '<b>1 May</b>' } },
      ...(html ? { html } : {}),
    });
    expect((translateBody(body(), 'en') as { message: string }).message).toContain('<b>1 May</b>');
    expect((translateBody(body(true), 'en') as { message: string }).message).toContain('&lt;b&gt;1 May&lt;/b&gt;');
  });

  it('names a field in an error as its form does, in the language of the page', () => {
    const body = {
      message: { key: 'errors.checkInput' },
      errors: { phone: [{ key: 'auth:errors.blank', params: { label: 'Phone' } }] },
    };
    expect(translateBody(body, 'de')).toEqual({
      message: 'Bitte prüfe deine Eingaben.',
      errors: { phone: ['Telefon darf nicht leer sein!'] },
    });
  });
});

describe('messages as keys', () => {
  it('translates a Message by its key and values, in the caller language', async () => {
    expect(translateKey({ key: 'errors.notFound' }, 'en')).toBe('Not found.');
    expect(translateKey({ key: 'errors.notFound' }, 'de')).toBe('Nicht gefunden.');
    expect(translateKey({ key: 'errors.notFound' }, 'pt')).toBe('Não encontrado.');
  });
});
