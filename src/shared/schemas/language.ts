// GET /getLanguage/{lang} (spec section 7): every catalogue of a language in one answer.
import { z } from 'zod';

/** Keys to texts or to groups of keys, `depth` groups deep at most (then anything: the document stays flat). */
const catalogue = (depth: number): z.ZodType<Record<string, unknown>> =>
  depth === 0 ? z.record(z.string(), z.unknown()) : z.record(z.string(), z.union([z.string(), catalogue(depth - 1)]));

/**
 * A catalogue (src/shared/i18n/<lang>/<namespace>.json): keys to texts, or to nested groups of keys (four
 * deep today). Written out level by level: a recursive schema would leave the OpenAPI document a
 * reference to a component it does not hold.
 */
export const Catalogue = catalogue(6);

export const LanguageResponse = z.object({
  /** The language asked for. */
  lang: z.string(),
  /** The language of the texts (each language has its own since 0606). */
  texts: z.string(),
  /** A hash of the texts: asked with ?v=<version>, the answer is immutable. */
  version: z.string(),
  /** Namespace -> catalogue. */
  resources: z.record(z.string(), Catalogue),
});
export type LanguageResponse = z.infer<typeof LanguageResponse>;
