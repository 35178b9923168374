// The mail that tells an advertiser an auto-topup could not run (a job, queued in the transaction that
// recorded the failed run: sent once that is committed, retried if the mail server is away).
import { msg } from '#shared/api/messages.ts';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import type { AppContext } from '../../context';
import { translateKey } from '../../lib/message-i18n';
import { getAccount } from '../account/account.service';
import { currentUser } from '../auth/identity.service';
import { publicBase } from '../auth/emails';

export async function sendFailedMail(ctx: AppContext, payload: Record<string, unknown>) {
  const userId = Number(payload.userId);
  const slot = String(payload.slot ?? '');
  const [{ data: account }, user] = await Promise.all([getAccount(ctx, userId), currentUser(ctx, userId)]);
  const lang: Language = (LANGUAGES as readonly string[]).includes(user.language) ? (user.language as Language) : 'en';
  const t = (key: string, params?: Record<string, string>) => translateKey(msg(key, params), lang);
  const link = `${publicBase(ctx)}/edit/load/${userId}`;
  const lines = [t('autoTopup.failedMailGreeting', { name: user.username }), t('autoTopup.failedMessage', { slot })];
  await ctx.mailer.send({
    to: account.email,
    subject: t('autoTopup.failedMailSubject'),
    text: [...lines, '', `${t('autoTopup.failedMailLink')}: ${link}`].join('\n'),
  });
}
