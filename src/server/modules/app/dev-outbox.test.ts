// /dev/outbox lists the outbox in development, and does not exist in test or production.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';

describe('/dev/outbox', () => {
  let dev: TestApp;
  let test: TestApp;
  beforeAll(async () => {
    dev = await createTestApp({ NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:5173' });
    test = await createTestApp();
  });
  afterAll(async () => {
    await dev.close();
    await test.close();
  });

  it('shows the mails with clickable links in development', async () => {
    const reg = await dev.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'dev@example.test',
        username: 'dev_user',
        password: 'a long dev password',
        date_of_birth: '1991-02-03',
        terms: true,
      },
    });
    expect(reg.statusCode, reg.body).toBe(200);
    // Development cookies are not Secure (plain http on localhost).
    expect(reg.cookies.find((c) => c.name === 'sid')?.secure).toBeFalsy();
    const list = await dev.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toContain('text/html');
    expect(list.body).toContain('Confirm your email address');
    expect(list.body).toMatch(/<a href="http:\/\/localhost:5173\/verify\/email\/\d+\.[A-Za-z0-9_-]+">/);
    const eml = /href="\/dev\/outbox\/(mail-[^"]+\.eml)"/.exec(list.body)?.[1];
    const raw = await dev.app.inject({ method: 'GET', url: `/dev/outbox/${eml}` });
    expect(raw.body).toContain('Subject: Confirm your email address');
    expect((await dev.app.inject({ method: 'GET', url: '/dev/outbox/..%2Fsecret.key' })).statusCode).toBe(404);
  });

  it('is not there outside development', async () => {
    expect((await test.app.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
  });
});
