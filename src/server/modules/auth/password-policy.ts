// ASVS 2.1: at least 8 characters (schema), at most 128, not one of the most common passwords, and not
// easy to guess by a strength estimate (zxcvbn-ts, issue 8 item 9; docs/decisions/0807). No composition
// rules: length, the breach list and the estimate are what stop guessing. Server side only: the
// dictionaries (about 1 MB of word lists) never reach the browser bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';
import { type Message, msg } from '#shared/api/messages.ts';

const LIST_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt');

/** zxcvbn's score 3: about 10^8 guesses or more ("safely unguessable" online, slow offline). */
export const MIN_STRENGTH_SCORE = 3;

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

let estimator: ZxcvbnFactory | undefined;

/**
 * Built on first use (about 0.6 s to load the word lists), then kept. The estimate runs in the request's
 * thread, so its cost is bounded: only the first 40 characters are estimated (a longer password is judged
 * by them; the schema allows 128), and the l33t matcher tries at most 4 substitutions. With zxcvbn's
 * defaults (256, 100) one 128-character password took 4 s here; with these, the worst case of
 * bench/password-strength.bench.ts is tens of milliseconds.
 */
function strengthEstimator(): ZxcvbnFactory {
  // No translations: feedback comes back as zxcvbn's keys, which REASONS below turns into our reasons
  // (keys of the messages catalogue, src/shared/i18n/<lang>/messages.json).
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    maxLength: 40,
    l33tMaxSubstitutions: 4,
  });
  return estimator;
}

/** Why a password is refused: each a key `auth.password.<reason>` of the messages catalogue. */
export const PASSWORD_REASONS = ['common', 'personal', 'repeats', 'sequence', 'dates', 'words', 'weak'] as const;
export type PasswordReason = (typeof PASSWORD_REASONS)[number];

const refused = (reason: PasswordReason): Message => msg(`auth.password.${reason}`);

/** zxcvbn's warning keys (core 4.x, Feedback.mjs) grouped under our reasons; anything else is `weak`. */
const REASONS: Record<string, PasswordReason> = {
  topTen: 'common',
  topHundred: 'common',
  common: 'common',
  similarToCommon: 'common',
  pwned: 'common',
  userInputs: 'personal',
  simpleRepeat: 'repeats',
  extendedRepeat: 'repeats',
  straightRow: 'sequence',
  keyPattern: 'sequence',
  sequences: 'sequence',
  recentYears: 'dates',
  dates: 'dates',
  wordByItself: 'words',
  namesByThemselves: 'words',
  commonNames: 'words',
};

export function passwordStrength(password: string, userInputs: string[] = []): ZxcvbnResult {
  return strengthEstimator().check(password, userInputs);
}

/** The reason a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, context: { username?: string; email?: string } = {}): Message | null {
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return refused('common');
  const names = [context.username, context.email, context.email?.split('@')[0]].filter(
    (n): n is string => !!n && n.length >= 3,
  );
  if (names.some((n) => lower === n.toLowerCase())) return refused('personal');
  const result = passwordStrength(password, names);
  if (result.score >= MIN_STRENGTH_SCORE) return null;
  const warning = result.feedback.warning;
  return refused((warning && REASONS[warning]) || 'weak');
}
