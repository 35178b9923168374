// Linked accounts: connect another account by its login and password, list, unlink, and switch the
// session to a linked one without a password. The switch returns the new session; the route sets it.
import { msg } from '#shared/api/messages.ts';
import type { LinksResponse } from '#shared/schemas/auth.ts';
import type { AppContext } from '../../context';
import { writeAudit } from '../../db/audit';
import { forbidden, ValidationError } from '../../lib/errors';
import type { SessionUser } from '../../plugins/session';
import { presentLinks } from './auth.presenter';
import * as repo from './auth.repo';
import { checkCredentials, sessionAnswer, type SignedIn } from './identity.service';
import type { ClientInfo } from './known-devices';
import { endSession, startSession } from './session.service';

export async function listLinks(ctx: AppContext, accountId: number): Promise<LinksResponse> {
  return presentLinks(await repo.listLinks(ctx.db, accountId));
}

export interface ConnectInput {
  actor: SessionUser;
  client: ClientInfo;
  login: string;
  password: string;
}

export async function connect(
  ctx: AppContext,
  { actor, client, login, password }: ConnectInput,
): Promise<LinksResponse> {
  const other = await checkCredentials(ctx, client, login, password);
  if (other.id === actor.id) throw ValidationError.field('login', msg('auth.connectSelf'));
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await repo.linkBothWays(tx, actor.id, other.id, now);
    await writeAudit(tx, { actorId: actor.id, action: 'account.linked', targetUserId: other.id, at: now });
  });
  return listLinks(ctx, actor.id);
}

export async function unlink(ctx: AppContext, actor: SessionUser, otherId: number): Promise<LinksResponse> {
  await repo.unlinkBothWays(ctx.db, actor.id, otherId);
  return listLinks(ctx, actor.id);
}

/** The actor's session ends and one of the linked account starts; no known-device cookie changes. */
export async function switchAccount(
  ctx: AppContext,
  { actor, client, targetId }: { actor: SessionUser; client: ClientInfo; targetId: number },
): Promise<Omit<SignedIn, 'knownDevices'>> {
  if (!(await repo.isLinked(ctx.db, actor.id, targetId))) throw forbidden(msg('auth.switchNotLinked'));
  const target = await repo.findAccountById(ctx.db, targetId);
  if (!target || target.status !== 'active') throw forbidden(msg('auth.switchUnusable'));
  const session = await ctx.db.transaction(async (tx) => {
    await endSession(tx, actor.sessionId);
    const started = await startSession(ctx, target.id, client, tx);
    await writeAudit(tx, { actorId: actor.id, action: 'account.switched', targetUserId: target.id, at: ctx.now() });
    return started;
  });
  return { answer: await sessionAnswer(ctx, target.id), session };
}
