// Get Help (/help): the contact form's message is stored in the admins' queue and mailed to every
// admin by a job queued in the same transaction (sent once committed, retried if the mail server is away).
import { msg } from '#shared/api/messages.ts';
import { notification, type NotificationPayload } from '#shared/api/errors.ts';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import type { HelpContactBody } from '#shared/schemas/help.ts';
import type { AppContext } from '../../context';
import { enqueue } from '../../lib/jobs';
import { translateKey } from '../../lib/message-i18n';
import { adminContacts } from '../auth/identity.service';
import { publicBase } from '../auth/emails';
import { storeHelpMessage } from '../directory/directory.service';

export const HELP_MAIL_JOB = 'help.contact-mail';

export async function contact(
  ctx: AppContext,
  body: HelpContactBody,
  ip: string,
  language: Language,
): Promise<NotificationPayload> {
  await ctx.db.transaction(async (tx) => {
    const id = await storeHelpMessage(ctx, tx, {
      message: `${body.subject}\n\n${body.message}`,
      contact: `${body.name} <${body.email}>`,
      ip,
    });
    await enqueue(tx, HELP_MAIL_JOB, { id, ...body, language }, ctx.now());
  });
  return notification(msg('help.sent'), { icon: 'success' });
}

/** The job: one mail per active admin, in that admin's language, naming the sender. */
export async function sendHelpMail(ctx: AppContext, payload: Record<string, unknown>): Promise<void> {
  const p = payload as unknown as HelpContactBody & { id: number; language: string };
  const admins = await adminContacts(ctx);
  for (const admin of admins) {
    const lang: Language = (LANGUAGES as readonly string[]).includes(admin.language)
      ? (admin.language as Language)
      : 'en';
    const t = (key: string, params?: Record<string, string>) => translateKey(msg(key, params), lang);
    await ctx.mailer.send({
      to: admin.email,
      subject: t('help.mailSubject', { subject: p.subject }),
      text: [
        t('help.mailFrom', { name: p.name, email: p.email, language: p.language }),
        '',
        p.message,
        '',
        `${t('help.mailQueue')}: ${publicBase(ctx)}/admin/overview`,
      ].join('\n'),
    });
  }
}
