// Texts the server sends to people (422 headings and field errors, {message} of 401/403/404/429,
// notifications) travel through the code as a key of the `messages` catalogue namespace
// (src/shared/i18n/<lang>/messages.json) and its values. They become sentences only at the edge, in
// the caller's language: the server's preSerialization hook translates them (src/server/lib/message-i18n.ts).
export type MessageParams = Record<string, string | number>;

export interface Message {
  /** Key in the `messages` namespace, e.g. `auth.badCredentials`. */
  key: string;
  params?: MessageParams;
}

export function msg(key: string, params?: MessageParams): Message {
  return params ? { key, params } : { key };
}

export function isMessage(value: unknown): value is Message {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as Message).key === 'string' &&
    Object.keys(value).every((k) => k === 'key' || k === 'params')
  );
}

/** A catalogue key, optionally with its namespace: `validation.choice`, `edit:errors.phone`. */
const KEY = /^([a-z][a-z0-9-]*:)?[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_]+)+$/;

/**
 * A Message written as one string, for the places that only take a string: a Zod issue's `message`
 * ("validation.minLength {"label":"Name","n":3}"). The server reads it back with parseMessageText and
 * translates it like any other Message; no English sentence travels through the code.
 */
export function messageText(key: string, params?: MessageParams): string {
  return params && Object.keys(params).length ? `${key} ${JSON.stringify(params)}` : key;
}

/** The Message a messageText string stands for, or null for any other text. */
export function parseMessageText(text: string): Message | null {
  const space = text.indexOf(' ');
  const key = space < 0 ? text : text.slice(0, space);
  if (!KEY.test(key)) return null;
  if (space < 0) return { key };
  try {
    const params = JSON.parse(text.slice(space + 1)) as unknown;
    if (!params || typeof params !== 'object' || Array.isArray(params)) return null;
    return { key, params: params as MessageParams };
  } catch {
    return null;
  }
}
