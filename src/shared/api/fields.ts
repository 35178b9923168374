// Field builders that carry the spec's messages, so the browser form and the server body agree.
import { z } from 'zod';
import { blankMessage } from './errors';

/** A required, trimmed string: missing, null or blank gives "{label} can't be blank!". */
export function requiredString(label: string, max = 1000) {
  return z
    .string({ error: () => blankMessage(label) })
    .trim()
    .min(1, blankMessage(label))
    .max(max, `${label} may not be longer than ${max} characters.`);
}

export function optionalString(label: string, max = 1000) {
  return z
    .string({ error: () => `${label} must be text.` })
    .trim()
    .max(max, `${label} may not be longer than ${max} characters.`)
    .optional();
}

/** Numeric id in a path parameter. */
export const IdParam = z.object({ id: z.coerce.number().int().positive() });
