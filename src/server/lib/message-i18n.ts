// Messages the server writes into bodies (422 headings and field errors, {message} of 401/403/404/429,
// notifications) in the visitor's language. The English sentence is the key, so the code keeps plain
// English and ./messages/<lang>.json holds the translations; a sentence without one stays English.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import { isMessage, type Message } from '#shared/api/messages.ts';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import { requestLanguage, serverI18n } from './i18n';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'messages');
const tables = new Map<string, Record<string, string>>();

function table(lang: 'de' | 'es'): Record<string, string> {
  let t = tables.get(lang);
  if (!t) {
    t = JSON.parse(fs.readFileSync(path.join(DIR, `${lang}.json`), 'utf8')) as Record<string, string>;
    tables.set(lang, t);
  }
  return t;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => values[k] ?? '');

export function translateMessage(message: string, lang: Language): string {
  if (lang === 'en') return message;
  const t = table(lang === 'de' ? 'de' : 'es'); // pt uses the Spanish texts
  if (t[message]) return t[message];
  // Sentences with values ("Too many attempts. Please try again in 5 minutes.", "Age must be at least
  // 18."): the table's keys with {{placeholders}} are templates, matched as patterns.
  for (const { pattern, names, key } of templates(lang === 'de' ? 'de' : 'es')) {
    const m = pattern.exec(message);
    if (m) return fill(t[key], Object.fromEntries(names.map((name, i) => [name, m[i + 1]])));
  }
  return message;
}

interface Template {
  pattern: RegExp;
  names: string[];
  key: string;
}
const compiled = new Map<string, Template[]>();

function templates(lang: 'de' | 'es'): Template[] {
  let list = compiled.get(lang);
  if (!list) {
    list = Object.keys(table(lang))
      .filter((key) => key.includes('{{'))
      .map((key) => {
        const names: string[] = [];
        const source = key
          .split(/(\{\{\w+\}\})/)
          .map((part) => {
            const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
            if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            names.push(name);
            return name === 'count' || name === 'n' ? '(-?[\\d.,]+)' : '(.+?)';
          })
          .join('');
        return { pattern: new RegExp(`^${source}$`), names, key };
      })
      // The most specific first: more literal text wins over a looser pattern.
      .sort((a, b) => b.key.replace(/\{\{\w+\}\}/g, '').length - a.key.replace(/\{\{\w+\}\}/g, '').length);
    compiled.set(lang, list);
  }
  return list;
}

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
    serverI18n().getFixedT(lang, 'messages')(message.key, { ...message.params, interpolation: { escapeValue: html } }),
  );
}

const text = (value: unknown, lang: Language, html = false) =>
  isMessage(value)
    ? translateKey(value, lang, html)
    : typeof value === 'string'
      ? translateMessage(value, lang)
      : value;

const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * A field's label in `lang`, from the forms' own catalogues (the label people saw next to the field), for
 * the `{{label}}` of its error; undefined when no form names that field.
 */
function fieldLabel(field: string, lang: Language): string | undefined {
  const name = field.split('.').at(-1) ?? field;
  const i18n = serverI18n();
  const lng = lang === 'pt' ? 'es' : lang;
  for (const key of [`edit:fields.${name}`, `auth:fields.${camel(name)}`, `settings:fields.${name}`])
    if (i18n.exists(key, { lng, fallbackLng: false })) return String(i18n.t(key, { lng }));
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
