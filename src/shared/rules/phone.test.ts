// The phone rule (issue 44 items 2 and 3; docs/decisions/0311): what people type is accepted and kept as
// E.164; a refusal says why and names the country its calling code belongs to, in each language.
import { beforeAll, describe, expect, it } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { testI18n } from '#client/lib/test-i18n.ts';
import { PhoneSection, LinksSection } from '#shared/schemas/profile-edit.ts';
import { regionName } from '#shared/i18n/formatters.ts';
import { checkPhone, formatPhone, normalizePhone, phoneRefusalMessage } from './phone';

describe('checkPhone accepts what people type', () => {
  it.each([
    ['+44 20 7946 0018', '+442079460018', 'GB'],
    ['+442079460018', '+442079460018', 'GB'],
    ['0044 20 7946 0018', '+442079460018', 'GB'],
    ['00 44 20 7946 0018', '+442079460018', 'GB'],
    ['+0044 20 7946 0018', '+442079460018', 'GB'],
    ['+44-20-7946-0018', '+442079460018', 'GB'],
    ['+44.20.7946.0018', '+442079460018', 'GB'],
    ['+44 (0)20 7946 0018', '+442079460018', 'GB'],
    ['(+44) 20 7946 0018', '+442079460018', 'GB'],
    ['+44\u00a020\u00a07946\u00a00018', '+442079460018', 'GB'],
    ['+44 20 7946–0018', '+442079460018', 'GB'],
    ['+49 (0) 30 / 1234 5678', '+493012345678', 'DE'],
    ['+1 (212) 555-0142', '+12125550142', 'US'],
    ['+34 612 34 56 78', '+34612345678', 'ES'],
    ['0055 11 96123-4567', '+5511961234567', 'BR'],
  ])('%s -> %s (%s)', (typed, e164, country) => {
    expect(checkPhone(typed)).toEqual({ ok: true, e164, country });
    expect(normalizePhone(typed)).toBe(e164);
  });

  it('shows a kept number grouped the way its country writes it', () => {
    expect(formatPhone('+442079460018')).toBe('+44 20 7946 0018');
    expect(formatPhone('+34612345678')).toBe('+34 612 34 56 78');
    expect(formatPhone('not a number')).toBe('not a number');
  });
});

describe('checkPhone refuses with the reason and the country', () => {
  it.each([
    // Ofcom keeps 07700 900000-900999 for films: no number in use, whatever the spacing.
    ['+44 7700 900123', { reason: 'notInUse', code: '44', country: 'GB' }],
    ['+447700900123', { reason: 'notInUse', code: '44', country: 'GB' }],
    ['0044 7700 900 123', { reason: 'notInUse', code: '44', country: 'GB' }],
    ['+1 555 0123 456', { reason: 'notInUse', code: '1', country: 'US' }],
    ['+49 30 1', { reason: 'tooShort', code: '49', country: 'DE' }],
    ['+44 12', { reason: 'tooShort', code: '44', country: 'GB' }],
    ['+34 612 345 678 901 234', { reason: 'tooLong', code: '34', country: 'ES' }],
    ['+999 1234 5678', { reason: 'unknownCode', code: '999' }],
    ['07700 900123', { reason: 'countryCode' }],
    ['20 7946 0018', { reason: 'countryCode' }],
    ['+', { reason: 'countryCode' }],
    ['+0 20 7946 0018', { reason: 'countryCode' }],
    ['+44 20 CALL ME', { reason: 'characters' }],
    ['+44 20 7946 0018 ext. 2', { reason: 'characters' }],
    ['+44 20 7946 + 0018', { reason: 'characters' }],
  ])('%s', (typed, refusal) => {
    expect(checkPhone(typed)).toEqual({ ok: false, ...refusal });
    expect(normalizePhone(typed)).toBeNull();
  });
});

describe('the refusal as people read it', () => {
  let i18n: I18n;
  beforeAll(async () => {
    i18n = await testI18n(['edit']);
  });
  const say = (typed: string, lng: string, label = 'Phone') => {
    const checked = checkPhone(typed);
    if (checked.ok) throw new Error(`${typed} was accepted`);
    const { key, values } = phoneRefusalMessage(checked);
    return i18n.t(key, { ...values, label, lng });
  };

  it('names the country, with "the" where English says it', () => {
    expect(say('+44 7700 900123', 'en')).toBe('This is not a number in use in the United Kingdom.');
    expect(say('+1 555 0123 456', 'en')).toBe('This is not a number in use in the United States.');
    expect(say('+49 30 1', 'en')).toBe('This is too short for a number in Germany.');
    expect(say('+999 1234', 'en', 'WhatsApp')).toBe('WhatsApp: +999 is not a country code.');
    expect(say('07700 900123', 'en')).toBe(
      'Phone needs its country code: start with + or 00, for example +44 20 7946 0018.',
    );
  });

  it('in German, Spanish and Portuguese, with the country in that language', () => {
    expect(say('+44 7700 900123', 'de')).toBe(
      'Diese Nummer ist in diesem Land nicht vergeben: Vereinigtes Königreich.',
    );
    expect(say('+44 7700 900123', 'es')).toBe('Este número no está en uso en este país: Reino Unido.');
    expect(say('+44 7700 900123', 'pt')).toBe('Este número não está em uso neste país: Reino Unido.');
    expect(say('+34 612 345 678 901 234', 'de')).toBe('Die Nummer ist zu lang für dieses Land: Spanien.');
    expect(say('+49 30 1', 'es')).toBe('El número es demasiado corto para este país: Alemania.');
    expect(say('+49 30 1', 'pt')).toBe('O número é curto demais para este país: Alemanha.');
  });

  it('the region format: names in each language, "the" only in English', () => {
    expect(regionName('NL', 'en', 'the')).toBe('the Netherlands');
    expect(regionName('DE', 'en', 'the')).toBe('Germany');
    expect(regionName('GB', 'en')).toBe('United Kingdom');
    expect(regionName('GB', 'de', 'the')).toBe('Vereinigtes Königreich');
    expect(regionName('US', 'pt')).toBe('Estados Unidos');
  });
});

describe('the schemas', () => {
  it('Phone keeps E.164 and says the key of its reason', () => {
    expect(PhoneSection.parse({ phone: '0044 (0)20 7946-0018' })).toEqual({ phone: '+442079460018' });
    const issue = PhoneSection.safeParse({ phone: '+44 7700 900123' }).error!.issues[0];
    expect(issue.message).toBe('edit:errors.phoneNotInUse {"label":"Phone","code":"44","country":"GB"}');
    expect(issue.code === 'custom' && issue.params).toEqual({
      i18n: 'edit:errors.phoneNotInUse',
      code: '44',
      country: 'GB',
    });
  });

  it('WhatsApp and Viber take a number only; Telegram and Signal a number or a username', () => {
    const messenger = (m: Record<string, string>) =>
      LinksSection.safeParse({ links: { messenger: m, social: {}, crypto: {} } });
    expect(messenger({ whatsapp: '+44 20 7946 0018', viber: '0044 20 7946 0019' }).data?.links.messenger).toEqual({
      whatsapp: '+442079460018',
      viber: '+442079460019',
    });
    expect(messenger({ telegram: '@anna_ldn', signal: '+44 20 7946 0018' }).data?.links.messenger).toEqual({
      telegram: '@anna_ldn',
      signal: '+442079460018',
    });
    expect(messenger({ whatsapp: '' }).data?.links.messenger).toEqual({ whatsapp: '' });
    const refused = messenger({ whatsapp: '+44 7700 900123', telegram: '+44 7700 900124', signal: 'anna x' }).error!;
    expect(refused.issues.map((i) => [i.path.join('.'), i.message.split(' ')[0]])).toEqual([
      ['links.messenger.telegram', 'edit:errors.phoneNotInUse'],
      ['links.messenger.whatsapp', 'edit:errors.phoneNotInUse'],
      ['links.messenger.signal', 'validation.noSpaces'],
    ]);
  });
});
