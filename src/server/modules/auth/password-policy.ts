// ASVS 2.1: at least 8 characters (schema), at most 128, and not one of the most common passwords.
// No composition rules: length and the breach list are what stop guessing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LIST_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt');

let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(
    fs
      .readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('# ')),
  );
  return common;
}

export function commonPasswordCount(): number {
  return commonPasswords().size;
}

/** The reason a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, context: { username?: string; email?: string } = {}): string | null {
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'This password is too common. Please choose another one.';
  const names = [context.username, context.email, context.email?.split('@')[0]].filter(
    (n): n is string => !!n && n.length >= 3,
  );
  if (names.some((n) => lower === n.toLowerCase())) return 'The password may not be your username or email address.';
  return null;
}
