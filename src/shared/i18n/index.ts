// i18next catalogues: ./<language>/<namespace>.json. A new namespace is one new file per language;
// nothing here needs editing (the glob picks it up), so sections can add theirs in parallel.
// Portuguese has files of its own (0606); a key missing there falls back to Spanish, then English.
//
// `import.meta.glob` is a Vite feature: this module is for code that goes through Vite (the client
// build and Vitest). Node code run by tsx reads the JSON files directly.

export type Catalogue = { [key: string]: string | Catalogue };
/** language -> namespace -> catalogue, the shape i18next calls "resources". */
export type Resources = Record<string, Record<string, Catalogue>>;

// Lazy on purpose: each catalogue becomes its own small chunk, so a visitor downloads only the
// namespaces of the screens they open, in their language.
const loaders = import.meta.glob<Catalogue>('./*/*.json', { import: 'default' });

const parsePath = (file: string) => {
  const match = /^\.\/([a-z]{2})\/([a-z0-9-]+)\.json$/.exec(file);
  return match ? { lng: match[1], ns: match[2] } : null;
};

const files = Object.keys(loaders)
  .map(parsePath)
  .filter((entry): entry is { lng: string; ns: string } => entry !== null);

/** Languages that have catalogues of their own. */
export const CATALOGUE_LANGUAGES = [...new Set(files.map((f) => f.lng))].sort();

export { FALLBACK_LANGUAGES } from './fallbacks.ts';

/** One catalogue, or undefined when that language has no file for the namespace. */
export async function loadCatalogue(lng: string, ns: string): Promise<Catalogue | undefined> {
  const load = loaders[`./${lng}/${ns}.json`];
  return load ? load() : undefined;
}

/** Every catalogue at once (tests, tooling); the app loads them one by one through loadCatalogue. */
export async function loadResources(): Promise<Resources> {
  const resources: Resources = {};
  await Promise.all(
    files.map(async ({ lng, ns }) => {
      const catalogue = await loadCatalogue(lng, ns);
      if (catalogue) (resources[lng] ??= {})[ns] = catalogue;
    }),
  );
  return resources;
}
