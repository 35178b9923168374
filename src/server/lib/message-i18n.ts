// Messages the server writes into bodies (422 headings and field errors, {message} of 401/403/404/429,
// notifications) in the caller's language. They travel through the code as Messages (a key of the shared
// `messages` catalogue and its values, src/shared/api/messages.ts) and become sentences only here, with
// the server's i18next instance and the same catalogues as the browser. Any other string is data and
// passes untouched.
import type { FastifyRequest } from 'fastify';
import { isMessage, type Message } from '#shared/api/messages.ts';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import { escapeHtml } from './html';
import { requestLanguage, serverI18n } from './i18n';

/** The language of the page that made the call: the SPA says so in `x-language`; else ?lang= or host. */
export function callLanguage(request: FastifyRequest): Language {
  const sent = request.headers['x-language'];
  if (typeof sent === 'string' && (LANGUAGES as readonly string[]).includes(sent)) return sent as Language;
  return requestLanguage(request);
}

/** A Message in `lang`, from the `messages` namespace of the shared catalogues. */
export function translateKey(message: Message, lang: Language, html = false): string {
  // Values are escaped when the text is HTML (a notification marked `html`); plain text is shown as text.
  return String(
    serverI18n().getFixedT(lang, 'messages')(message.key, {
      ...message.params,
      interpolation: { escapeValue: html, escape: escapeHtml },
    }),
  );
}

const text = (value: unknown, lang: Language, html = false) =>
  isMessage(value) ? translateKey(value, lang, html) : value;

const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * A field's label in `lang`, from the forms' own catalogues (the label people saw next to the field), for
 * the `{{label}}` of its error; undefined when no form names that field.
 */
function fieldLabel(field: string, lang: Language): string | undefined {
  const name = field.split('.').at(-1) ?? field;
  const i18n = serverI18n();
  for (const key of [`edit:fields.${name}`, `auth:fields.${camel(name)}`, `settings:fields.${name}`])
    if (i18n.exists(key, { lng: lang, fallbackLng: false })) return String(i18n.t(key, { lng: lang }));
  return undefined;
}

/** A field error: a Message says the field's label as that field's form does, in `lang`. */
function fieldText(value: unknown, field: string, lang: Language) {
  if (!isMessage(value) || typeof value.params?.label !== 'string') return text(value, lang);
  const label = fieldLabel(field, lang);
  return translateKey(label ? { key: value.key, params: { ...value.params, label } } : value, lang);
}

/** Translates message, title and field errors of a response body in place of a copy. */
export function translateBody(body: unknown, lang: Language): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const b = body as Record<string, unknown>;
  if (b.message === undefined && b.title === undefined && !b.errors) return body;
  const out: Record<string, unknown> = { ...b };
  const html = b.html === true;
  if (b.message !== undefined) out.message = text(b.message, lang, html);
  if (b.title !== undefined) out.title = text(b.title, lang);
  if (b.errors && typeof b.errors === 'object') {
    out.errors = Object.fromEntries(
      Object.entries(b.errors as Record<string, unknown>).map(([field, list]) => [
        field,
        Array.isArray(list) ? list.map((m) => fieldText(m, field, lang)) : list,
      ]),
    );
  }
  return out;
}
