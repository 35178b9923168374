// One catalogue per language, checked against the code (issue 13): every key the code names exists in
// en, de, es and pt, every key of a catalogue is used by the code, and every language has the same keys;
// Portuguese is written in Portuguese, not left in Spanish (0606).
// Keys are found by scanning the sources: t('key') / t('ns:key') calls in a file whose useTranslation or
// translator names the namespace, msg('key') for the messages namespace, and any string literal equal
// to a key (tables such as nav-entries hold keys). A template literal `prefix.${x}` uses every key under
// its prefix. docs/decisions/0602 says why this scanner rather than an extractor.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const I18N = path.join(ROOT, 'src/shared/i18n');
const LANGS = ['en', 'de', 'es', 'pt'];
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Catalogue = { [key: string]: string | Catalogue };
function flatten(c: Catalogue, prefix = ''): string[] {
  return Object.entries(c).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : flatten(v, `${prefix}${k}.`)));
}
const namespaces = fs.readdirSync(path.join(I18N, 'en')).map((f) => f.replace(/\.json$/, ''));
const keysOf = (lang: string, ns: string): string[] => {
  const file = path.join(I18N, lang, `${ns}.json`);
  return fs.existsSync(file) ? flatten(JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue) : [];
};
/** "ns:key" of every key, plural suffixes folded ("count_one" -> "count"). */
const catalogue = (lang: string) =>
  new Set(namespaces.flatMap((ns) => keysOf(lang, ns).map((k) => `${ns}:${k.replace(PLURAL, '')}`)));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'i18n' && dir.endsWith('shared') ? [] : sources(p);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}
const files = sources(path.join(ROOT, 'src'));
// Comments are not code: an example in a comment names no key.
const stripComments = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
const code = new Map(files.map((f) => [f, stripComments(fs.readFileSync(f, 'utf8'))]));

/** The namespaces a file translates in: useTranslation('x'), useTranslation(['x', 'y']), translator(l, 'x'). */
function fileNamespaces(src: string): string[] {
  const found = new Set<string>();
  for (const m of src.matchAll(/useTranslation\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")?/g)) {
    if (!m[1]) found.add('common');
    else for (const n of m[1].matchAll(/['"]([a-z0-9-]+)['"]/g)) found.add(n[1]);
  }
  for (const m of src.matchAll(/(?:translator|getFixedT)\([^)]*?,\s*'([a-z0-9-]+)'\)/g)) found.add(m[1]);
  if (/\btranslator\([^,)]*\)/.test(src)) found.add('directory');
  return [...found];
}

/** Keys the code names literally in t() calls, as "ns:key" candidates per call. */
function calledKeys(): Array<{ file: string; key: string; candidates: string[] }> {
  const out: Array<{ file: string; key: string; candidates: string[] }> = [];
  for (const [file, src] of code) {
    const nss = fileNamespaces(src);
    for (const m of src.matchAll(/\bt\(\s*(['"])([A-Za-z0-9_.:-]+)\1/g)) {
      const key = m[2];
      if (!key.includes('.') && !key.includes(':') && !/^[a-z][A-Za-z]+$/.test(key)) continue;
      // A file that is handed its t (a view rendered by client and server, a mail) names no namespace:
      // the key must then exist in some namespace.
      const candidates = key.includes(':') ? [key] : (nss.length ? nss : namespaces).map((ns) => `${ns}:${key}`);
      out.push({ file: path.relative(ROOT, file), key, candidates });
    }
    for (const m of src.matchAll(/\bmsg\(\s*(['"])([A-Za-z0-9_.]+)\1/g))
      out.push({ file: path.relative(ROOT, file), key: m[2], candidates: [`messages:${m[2]}`] });
  }
  return out;
}

/**
 * Every string literal, and every template literal as a pattern: `a.b.${x}.c` uses the keys "a.b.<one
 * segment>.c"; a template of several parts uses every key under its static head.
 */
function literals(): { exact: Set<string>; patterns: Array<{ head: string; tail: string; one: boolean }> } {
  const exact = new Set<string>();
  const patterns: Array<{ head: string; tail: string; one: boolean }> = [];
  for (const src of code.values()) {
    for (const m of src.matchAll(/(['"])([A-Za-z0-9_.:-]+)\1/g)) exact.add(m[2]);
    for (const m of src.matchAll(/`([A-Za-z0-9_.:-]*)\$\{[^}`]*\}([A-Za-z0-9_.:-]*)(`|\$\{)/g)) {
      const [, head, tail, end] = m;
      // Only key-shaped parts: a head ending in "." or ":" (`titles:${x}`, `help.faq.${k}`) or a tail
      // starting with "." (`${kind}.title`); several parts need a head.
      const keyHead = /[.:]$/.test(head);
      if (end === '`' && (keyHead || tail.startsWith('.')))
        patterns.push({ head: keyHead ? head : '', tail, one: true });
      else if (end !== '`' && keyHead) patterns.push({ head, tail: '', one: false });
    }
  }
  return { exact, patterns };
}

describe('catalogues', () => {
  it('hold the same keys in en, de, es and pt', () => {
    const en = catalogue('en');
    for (const lang of LANGS.slice(1)) {
      const other = catalogue(lang);
      expect(
        [...en].filter((k) => !other.has(k)),
        `missing in ${lang}`,
      ).toEqual([]);
      expect(
        [...other].filter((k) => !en.has(k)),
        `only in ${lang}`,
      ).toEqual([]);
    }
  });

  // The client loads only the page's language, no fallback (docs/decisions/0712): a count must find its
  // form in that language's own catalogue for every plural category the language has (Spanish "many").
  it('hold every plural form of their language', () => {
    const missing: string[] = [];
    for (const lang of LANGS) {
      const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      for (const ns of namespaces) {
        const keys = new Set(keysOf(lang, ns));
        const plurals = new Set([...keys].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
        for (const base of plurals)
          for (const form of forms) if (!keys.has(`${base}_${form}`)) missing.push(`${lang}/${ns}: ${base}_${form}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('have every key the code names, in every language', () => {
    const cats = LANGS.map(catalogue);
    const missing = calledKeys()
      .filter(({ candidates }) => !cats.every((c) => candidates.some((k) => c.has(k))))
      .map(({ file, key }) => `${file}: ${key}`);
    expect(missing).toEqual([]);
  });

  it('have no key the code does not use', () => {
    const { exact, patterns } = literals();
    const fits = (name: string, { head, tail, one }: { head: string; tail: string; one: boolean }) => {
      if (!name.startsWith(head) || !name.endsWith(tail) || name.length <= head.length + tail.length) return false;
      return !one || !name.slice(head.length, name.length - tail.length).includes('.');
    };
    const used = (nsKey: string) => {
      const key = nsKey.slice(nsKey.indexOf(':') + 1);
      if (exact.has(key) || exact.has(nsKey)) return true;
      return patterns.some((p) => fits(nsKey, p) || (!p.head.includes(':') && fits(key, p)));
    };
    expect([...catalogue('en')].filter((k) => !used(k))).toEqual([]);
  });

  // A Portuguese text equal to its Spanish one is a Spanish sentence left behind, unless every word of it is
  // one the two languages share (or a name: messengers, networks, coins). Kept short on purpose.
  it('write Portuguese in Portuguese: no text equal to its Spanish one beyond shared words', () => {
    const names = /^(directory:profile\.linkNames|directory:share\.networks)\./;
    const leftInSpanish: string[] = [];
    const textsOf = (lang: string, ns: string) => {
      const file = path.join(I18N, lang, `${ns}.json`);
      const out = new Map<string, string>();
      const walk = (c: Catalogue, prefix: string) => {
        for (const [k, v] of Object.entries(c)) {
          if (typeof v === 'string') out.set(prefix + k, v);
          else walk(v, `${prefix}${k}.`);
        }
      };
      if (fs.existsSync(file)) walk(JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue, '');
      return out;
    };
    for (const ns of namespaces) {
      const es = textsOf('es', ns);
      for (const [key, text] of textsOf('pt', ns)) {
        if (es.get(key) !== text || names.test(`${ns}:${key}`)) continue;
        const words = text
          .replace(/\{\{[^}]*\}\}/g, ' ')
          .toLowerCase()
          .match(/\p{L}+/gu);
        if (words?.some((w) => !SHARED_WORDS.has(w))) leftInSpanish.push(`${ns}:${key} = ${text}`);
      }
    }
    expect(leftInSpanish).toEqual([]);
  });
});

/** Words spelt alike in Brazilian Portuguese and Spanish (abbreviations, codes and brand names included). */
const SHARED_WORDS = new Set(
  (
    'admin aa ajuste anterior avatar banco bdsm bic buscar cancelar compra completo confirmado confirmar ' +
    'continuar copiado copiar cripto cvc de descartadas dígitos discreta divertida domingo editar elegante ' +
    'este favoritos filtrar foto fotos hora horas iban id idioma idiomas incompleto inteligente km ' +
    'mm minutos motivo mostrar nota ocultar oculto opcional página páginas país perfil populares por ' +
    'público recarga reembolso resolver retrato sábado saldo sandbox sobre spam striptease tímida tipo ' +
    'todos total trans ts tv uniformes verificado verificar vídeo vídeos advertir advertido código ' +
    'denunciar encontrado extrovertida tranquila aviso mínima perdida países'
  ).split(' '),
);
