// A saved number the phone rule now refuses (issue 44 item 2; docs/decisions/0311): the edit screen shows it
// with the reason, naming the country, in her language, and the way to correct it; an accepted or missing
// number shows nothing. "Same as my phone" is offered only when she has a number to copy.
import { createElement, type FunctionComponent } from 'react';
import { MemoryRouter } from 'react-router';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderWith, testI18n } from '#client/lib/test-i18n.ts';
import { SameAsPhoneButton, SavedPhoneNotice } from './phone-fields';

let i18n: I18n;
beforeAll(async () => {
  i18n = await testI18n(['edit']);
});

async function render<P extends object>(lng: string, element: FunctionComponent<P>, props: P) {
  await i18n.changeLanguage(lng);
  return renderWith(i18n, createElement(MemoryRouter, null, createElement(element, props)));
}
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('SavedPhoneNotice', () => {
  it.each([
    [
      'en',
      'Your saved number +44 7700 900123 needs correcting. This is not a number in use in the United Kingdom. Correct my phone number',
    ],
    [
      'de',
      'Deine gespeicherte Nummer +44 7700 900123 muss korrigiert werden. Diese Nummer ist in diesem Land nicht vergeben: Vereinigtes Königreich. Telefonnummer korrigieren',
    ],
    [
      'es',
      'Tu número guardado +44 7700 900123 debe corregirse. Este número no está en uso en este país: Reino Unido. Corregir mi teléfono',
    ],
    [
      'pt',
      'Seu número salvo +44 7700 900123 precisa ser corrigido. Este número não está em uso neste país: Reino Unido. Corrigir meu telefone',
    ],
  ])('%s: the saved number, the reason naming the country, and the way to the Phone section', async (lng, said) => {
    const html = await render(lng, SavedPhoneNotice, { id: 7, phone: '+44 7700 900123' });
    expect(text(html)).toBe(said);
    expect(html).toContain('role="alert"');
    expect(html).toContain('href="/edit/7?edit=phone"');
  });

  it('says nothing for an accepted number, kept or as typed, or none', async () => {
    for (const phone of ['+442079460018', '+44 20 7946 0018', null])
      expect(await render('en', SavedPhoneNotice, { id: 7, phone })).toBe('');
  });
});

describe('SameAsPhoneButton', () => {
  it('is offered when she has a number, and not otherwise', async () => {
    const html = await render('en', SameAsPhoneButton, { phone: '+442079460018', onCopy: () => undefined });
    expect(text(html)).toBe('Same as my phone');
    expect(await render('en', SameAsPhoneButton, { phone: null, onCopy: () => undefined })).toBe('');
    expect(await render('en', SameAsPhoneButton, { phone: '+447700900123', onCopy: () => undefined })).toBe('');
  });
});
