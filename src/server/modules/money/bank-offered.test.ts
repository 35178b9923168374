// Issue 45 item 2 (decision 1018): a production site offers bank transfer only with its own account; the
// sandbox's placeholder account is for development and the tests.
import { describe, expect, it } from 'vitest';
import { as } from '../../test/as';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp } from '../../test/helpers';

const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'http://localhost' };

async function bankOf(env: Record<string, string>) {
  const t = await createTestApp(env);
  try {
    await seedGeo(t.ctx);
    const a = (await createAdvertiser(t.ctx)).account;
    const session = await createSession(t.ctx, a.id);
    const data = await as(t, session).get(`/api/payment/getData`);
    expect(data.statusCode, data.body).toBe(200);
    const details = await as(t, session).get(`/api/payment/getBankDetails/${a.id}`);
    return { offered: data.json().data.methods.bank as boolean, details };
  } finally {
    await t.close();
  }
}

describe('bank transfer offered (decision 1018)', () => {
  it('not in production without BANK_IBAN: no method, and no placeholder account to send money to', async () => {
    const { offered, details } = await bankOf(PRODUCTION);
    expect(offered).toBe(false);
    expect(details.statusCode).toBe(404);
    expect(details.body).not.toContain('SANDBOX');
  });

  it('in production with the account, and outside production with the sandbox placeholder', async () => {
    const real = await bankOf({
      ...PRODUCTION,
      BANK_IBAN: 'DE89370400440532013000',
      BANK_ACCOUNT_HOLDER: 'Example Ltd',
    });
    expect(real.offered).toBe(true);
    expect(real.details.json().data).toMatchObject({ iban: 'DE89370400440532013000', sandbox: false });
    const dev = await bankOf({});
    expect(dev.offered).toBe(true);
    expect(dev.details.json().data).toMatchObject({ sandbox: true });
  });
});
