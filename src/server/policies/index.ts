// Who may do what, stated once (issue 22 item 1; Outline's server/policies is the model). Routes and
// services ask `can(actor, action, subject)` for a yes or no, or `authorize(...)` to get the actor back
// or a 401/403. No other server file compares roles: a lint rule refuses `role === 'admin'` outside
// this folder (eslint.config.js), so a new rule is written here or nowhere.
//
// Everything an advertiser has hangs off her account id: the profile, its media, its money and the
// comments on it. The subjects below carry that id, not the rows, so a caller can ask before loading.
import { forbidden, unauthenticated } from '../lib/errors';

export type Role = 'advertiser' | 'admin';

/** The signed-in account asking; plugins/session.ts's SessionUser is one. */
export interface Actor {
  id: number;
  role: Role;
}

export type Subject =
  /** The account itself: its settings, name, password, linked accounts, verification requests. */
  | { type: 'account'; id: number }
  /** The advertiser's public profile; `listed` is whether the public may see it today. */
  | { type: 'profile'; ownerId: number; listed?: boolean }
  /** The profile's pictures and video. */
  | { type: 'media'; ownerId: number }
  /** Balance, payments, transactions, bank details, auto top-up. */
  | { type: 'money'; ownerId: number }
  /** The comments on a profile (the profile's owner moderates them). */
  | { type: 'comments'; profileId: number }
  /** The site as a whole: the admin screens, products, prices, reviews. */
  | { type: 'site' };

type Of<T extends Subject['type']> = Extract<Subject, { type: T }>;

export const account = (id: number): Of<'account'> => ({ type: 'account', id });
export const profile = (ownerId: number, listed?: boolean): Of<'profile'> => ({ type: 'profile', ownerId, listed });
export const media = (ownerId: number): Of<'media'> => ({ type: 'media', ownerId });
export const money = (ownerId: number): Of<'money'> => ({ type: 'money', ownerId });
export const comments = (profileId: number): Of<'comments'> => ({ type: 'comments', profileId });
export const site: Of<'site'> = { type: 'site' };

type Rule<S> = (actor: Actor | null, subject: S) => boolean;

const isAdmin = (actor: Actor | null) => actor?.role === 'admin';
const owns = (actor: Actor | null, ownerId: number) => !!actor && (actor.id === ownerId || isAdmin(actor));

const rules = {
  account: {
    read: (actor, s) => owns(actor, s.id),
    update: (actor, s) => owns(actor, s.id),
  },
  profile: {
    // Unlisted profiles (hidden, flagged, incomplete) exist only for their owner and admins.
    read: (actor, s) => s.listed === true || owns(actor, s.ownerId),
    update: (actor, s) => owns(actor, s.ownerId),
  },
  media: {
    update: (actor, s) => owns(actor, s.ownerId),
    /** Admins replace an avatar without the advertiser's top-up rule (DESIGN.md "Photos"). */
    replaceAvatarFreely: (actor) => isAdmin(actor),
  },
  money: {
    read: (actor, s) => owns(actor, s.ownerId),
    update: (actor, s) => owns(actor, s.ownerId),
    /** Manual credits and debits, bank transfers received: the ledger's admin entries. */
    adjust: (actor) => isAdmin(actor),
  },
  comments: {
    post: (actor) => !!actor,
    /** Delete any comment, and see them while the owner has comments switched off. */
    moderate: (actor, s) => owns(actor, s.profileId),
  },
  site: {
    administer: (actor) => isAdmin(actor),
  },
} satisfies { [T in Subject['type']]: Record<string, Rule<Of<T>>> };

/** The actions a kind of subject has: `ActionOn<'profile'>` is 'read' | 'update'. */
export type ActionOn<T extends Subject['type']> = keyof (typeof rules)[T] & string;

export function can<S extends Subject>(
  actor: Actor | null | undefined,
  action: ActionOn<S['type']>,
  subject: S,
): boolean {
  const rule = (rules[subject.type] as Record<string, Rule<Subject>>)[action];
  if (!rule) throw new Error(`No policy for ${action} on ${subject.type}`);
  return rule(actor ?? null, subject);
}

/** `can`, or 401 for a visitor and 403 for a signed-in account; hands the actor back typed as given. */
export function authorize<A extends Actor, S extends Subject>(
  actor: A | null | undefined,
  action: ActionOn<S['type']>,
  subject: S,
): A {
  if (!actor) throw unauthenticated();
  if (!can(actor, action, subject)) throw forbidden();
  return actor;
}
