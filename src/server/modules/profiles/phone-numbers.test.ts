// Phone and the messengers that reach a number through POST /update (issue 44 items 2 and 3; docs/decisions/
// 0311): what people type is accepted and kept as E.164, a refused number is answered with the 422 envelope
// whose reason names the country, in the caller's language, and a refused call writes nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, profiles } from '../../db/schema';
import { as } from '../../test/as';
import { createSession, type Session } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
async function newAdvertiser() {
  counter += 1;
  const username = `phone${counter}_${Date.now().toString(36)}`;
  const [account] = await t.ctx.db
    .insert(accounts)
    .values({
      email: `${username}@example.test`,
      username,
      passwordHash: 'x',
      dateOfBirth: '1990-01-01',
      termsAcceptedAt: new Date(),
    })
    .returning();
  await t.ctx.db.insert(profiles).values({ userId: account.id });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}

const update = (session: Session, payload: object, language?: string) =>
  as(t, session).post('/api/update', payload, language ? { headers: { 'x-language': language } } : {});
const profileRow = async (id: number) => (await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id)))[0];
const audits = async (id: number) =>
  (await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, id))).length;
const links = (messenger: Record<string, string>) => ({
  section: 'links',
  links: { messenger, social: {}, crypto: {} },
});

describe('Phone accepts what people type and keeps E.164', () => {
  it.each([
    ['spaces', '+44 20 7946 0018'],
    ['no spaces', '+442079460018'],
    ['00 instead of +', '0044 20 7946 0018'],
    ['dashes', '+44-20-7946-0018'],
    ['dots', '0044.20.7946.0018'],
    ['brackets and the trunk 0', '+44 (0)20 7946 0018'],
    ['the code in brackets', '(+44) 20 7946 0018'],
    ['spaces around it', '  +44 20 7946 0018  '],
  ])('%s: %s', async (_name, typed) => {
    const { id, session } = await newAdvertiser();
    const res = await update(session, { section: 'phone', phone: typed });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.phone).toBe('+442079460018');
    expect((await profileRow(id)).phone).toBe('+442079460018');
  });

  it('shows the kept number to visitors grouped as its country writes it', async () => {
    const { id, session } = await newAdvertiser();
    expect((await update(session, { section: 'phone', phone: '00442079460018' })).statusCode).toBe(200);
    // Her own profile page (not listed yet): the same presenter as a visitor's.
    const profile = await t.app.inject({ method: 'GET', url: `/api/getProfile/${id}`, cookies: session.cookies });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().profile.phone).toBe('+44 20 7946 0018');
  });
});

describe('a refused number: 422 with its reason, naming the country, and nothing written', () => {
  const cases: Array<[string, object, string, string]> = [
    [
      'a number the United Kingdom does not use (Ofcom keeps it for films)',
      { section: 'phone', phone: '+44 7700 900123' },
      'phone',
      'This is not a number in use in the United Kingdom.',
    ],
    [
      'the same without spaces, 00 for +',
      { section: 'phone', phone: '00447700900123' },
      'phone',
      'This is not a number in use in the United Kingdom.',
    ],
    [
      'a German number too short',
      { section: 'phone', phone: '+49 30 1' },
      'phone',
      'This is too short for a number in Germany.',
    ],
    [
      'a Spanish number too long',
      { section: 'phone', phone: '+34 612 345 678 901 234' },
      'phone',
      'This is too long for a number in Spain.',
    ],
    [
      'no country code',
      { section: 'phone', phone: '07946 0018' },
      'phone',
      'Phone needs its country code: start with + or 00, for example +44 20 7946 0018.',
    ],
    [
      'a calling code no country has',
      { section: 'phone', phone: '+999 1234 5678' },
      'phone',
      'Phone: +999 is not a country code.',
    ],
    [
      'WhatsApp, a number not in use',
      links({ whatsapp: '+44 7700 900123' }),
      'links.messenger.whatsapp',
      'This is not a number in use in the United Kingdom.',
    ],
    [
      'WhatsApp, a name',
      links({ whatsapp: 'anna' }),
      'links.messenger.whatsapp',
      'WhatsApp may contain only digits, spaces, brackets, dots, dashes and a + at the start.',
    ],
    [
      'Viber without a country code',
      links({ viber: '020 7946 0018' }),
      'links.messenger.viber',
      'Viber needs its country code: start with + or 00, for example +44 20 7946 0018.',
    ],
    [
      'Signal, written as a number, not in use',
      links({ signal: '+1 555 0123 456' }),
      'links.messenger.signal',
      'This is not a number in use in the United States.',
    ],
    [
      'a good Telegram beside a refused WhatsApp',
      links({ telegram: '@anna_ldn', whatsapp: '+44 7700 900 123' }),
      'links.messenger.whatsapp',
      'This is not a number in use in the United Kingdom.',
    ],
  ];

  it.each(cases)('%s', async (_name, body, field, message) => {
    const { id, session } = await newAdvertiser();
    // A number and links already saved: a refused call must leave them as they were.
    expect((await update(session, { section: 'phone', phone: '+44 20 7946 0018' })).statusCode).toBe(200);
    expect((await update(session, links({ telegram: '@before' }))).statusCode).toBe(200);
    const before = await profileRow(id);
    const auditsBefore = await audits(id);
    const res = await update(session, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ errors: { [field]: [message] } });
    expect(await profileRow(id)).toEqual(before);
    expect(await audits(id)).toBe(auditsBefore);
  });

  it('the reason and the country in the caller’s language', async () => {
    const { session } = await newAdvertiser();
    const said = async (language: string) =>
      (await update(session, { section: 'phone', phone: '+44 7700 900123' }, language)).json().errors.phone;
    expect(await said('de')).toEqual(['Diese Nummer ist in diesem Land nicht vergeben: Vereinigtes Königreich.']);
    expect(await said('es')).toEqual(['Este número no está en uso en este país: Reino Unido.']);
    expect(await said('pt')).toEqual(['Este número não está em uso neste país: Reino Unido.']);
    const whatsapp = await update(session, links({ whatsapp: '+49 30 1' }), 'de');
    expect(whatsapp.json().errors['links.messenger.whatsapp']).toEqual([
      'Die Nummer ist zu kurz für dieses Land: Deutschland.',
    ]);
  });
});

describe('messengers that reach a number', () => {
  it('take what Phone takes and keep E.164; a username stays a username', async () => {
    const { id, session } = await newAdvertiser();
    const res = await update(
      session,
      links({
        whatsapp: '0044 (0)20 7946-0018',
        viber: 'https://wa.me/442079460019',
        telegram: '+44 20 7946 0020',
        signal: 'anna.42',
      }),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['links.messenger.viber']);

    const ok = await update(
      session,
      links({
        whatsapp: '0044 (0)20 7946-0018',
        viber: '+44 20 7946 0019',
        telegram: '+44 20 7946 0020',
        signal: 'anna.42',
      }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const kept = {
      whatsapp: '+442079460018',
      viber: '+442079460019',
      telegram: '+442079460020',
      signal: 'anna.42',
    };
    expect(ok.json().data.links.messenger).toEqual(kept);
    expect((await profileRow(id)).links).toEqual({ messenger: kept });

    // A WhatsApp link to a number is that number.
    const link = await update(session, links({ whatsapp: 'https://wa.me/442079460021' }));
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().data.links.messenger).toEqual({ whatsapp: '+442079460021' });
  });

  it('a username with a space is still refused as before', async () => {
    const { session } = await newAdvertiser();
    const res = await update(session, links({ telegram: 'anna x' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['links.messenger.telegram']).toEqual(['Messenger may not contain spaces.']);
  });
});
