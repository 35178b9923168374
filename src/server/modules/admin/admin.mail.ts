// Mails of admin decisions (a verification decided, a warning): queued as a job in the transaction of
// the decision, so a mail goes exactly when the decision committed, and retried if the mail server is
// away. Written in the advertiser's language when they open it, from the `messages` catalogue.
import { msg } from '#shared/api/messages.ts';
import { DECLINE_REASONS, LANGUAGES, type Language } from '#shared/constants.ts';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { enqueue, type JobHandler } from '../../lib/jobs';
import { translateKey } from '../../lib/message-i18n';
import { getAccount } from '../account/account.service';
import { currentUser } from '../auth/identity.service';
import { publicBase } from '../auth/emails';
import { addNotice } from '../notices/notices.service';

export const ADMIN_MAIL_JOB = 'admin.mail';

export type Decision =
  { kind: 'verified' } | { kind: 'declined'; reason: (typeof DECLINE_REASONS)[number] } | { kind: 'warning' };

/** The notice's keys and the page it leads to. */
function texts(userId: number, d: Decision) {
  if (d.kind === 'verified')
    return { title: 'admin.verifiedTitle', message: 'admin.verifiedMessage', path: `/edit/verify/${userId}` };
  if (d.kind === 'declined')
    return { title: 'admin.declinedTitle', message: `admin.declined.${d.reason}`, path: `/edit/verify/${userId}` };
  return { title: 'admin.warningTitle', message: 'admin.warningMessage', path: `/edit/media/${userId}` };
}

/** In the decision's transaction: the in-app notice and the queued mail. `date` is the decision's UTC day. */
export async function tellAdvertiser(tx: Tx, userId: number, d: Decision, at: Date) {
  const t = texts(userId, d);
  const date = at.toISOString().slice(0, 10);
  await addNotice(tx, {
    userId,
    kind: d.kind === 'warning' ? 'warning' : `verification_${d.kind}`,
    title: t.title,
    message: t.message,
    params: { date },
    path: t.path,
    at,
    // A newer decision replaces the older one's notice: "declined" never stays beside "verified".
    ...(d.kind === 'warning' ? {} : { replaces: ['verification_verified', 'verification_declined'] }),
  });
  await enqueue(tx, ADMIN_MAIL_JOB, { userId, decision: d, date }, at);
}

export const sendAdminMail: JobHandler = async (ctx: AppContext, payload) => {
  const userId = Number(payload.userId);
  const decision = payload.decision as Decision;
  const date = String(payload.date ?? '');
  const [{ data: account }, user] = await Promise.all([getAccount(ctx, userId), currentUser(ctx, userId)]);
  const lang: Language = (LANGUAGES as readonly string[]).includes(user.language) ? (user.language as Language) : 'en';
  const tr = (key: string, params?: Record<string, string>) => translateKey(msg(key, params), lang);
  const t = texts(userId, decision);
  const shown = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
  const link = `${publicBase(ctx)}${t.path}`;
  await ctx.mailer.send({
    to: account.email,
    subject: tr(t.title),
    text: [
      tr('admin.mailGreeting', { name: user.username }),
      '',
      tr(t.message, { date: shown }),
      '',
      `${tr(decision.kind === 'warning' ? 'admin.mailMediaLink' : 'admin.mailVerifyLink')}: ${link}`,
    ].join('\n'),
  });
};

export const adminJobHandlers: Record<string, JobHandler> = { [ADMIN_MAIL_JOB]: sendAdminMail };
