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
