// The messages the account flows send, in the recipient's language. Links are built on PUBLIC_URL,
// never on the request's Host header (a forged Host would otherwise put an attacker's domain into a
// reset mail).
import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '#shared/constants.ts';
import { isLanguage } from '#shared/rules/language.ts';
import type { AppContext } from '../../context';
import { translator } from '../../lib/i18n';
import type { MailMessage } from '../../lib/mailer';
import { escapeHtml } from '../../lib/html';

export function publicBase(ctx: AppContext): string {
  return (ctx.env.PUBLIC_URL ?? `http://localhost:${ctx.env.PORT}`).replace(/\/+$/, '');
}

/** Who a mail is written to: the name it greets and the language stored on the account. */
export interface Recipient {
  username: string;
  language: string;
}

/** The account's language when it is one of ours, else English (an old row, a hand-edited value). */
export function mailLanguage(language: string): Language {
  return isLanguage(language) ? language : 'en';
}

/** t of the mail catalogue in the recipient's language. */
function tr(who: Recipient) {
  const lang = mailLanguage(who.language);
  return translator(lang, 'mail');
}

function message(
  to: string,
  who: Recipient,
  subject: string,
  lines: string[],
  link?: { url: string; label: string },
): MailMessage {
  const t = tr(who);
  const body = [t('greeting', { name: who.username }), ...lines];
  const automatic = t('automatic');
  const text = [...body, ...(link ? ['', `${link.label}: ${link.url}`] : []), '', '-- ', automatic].join('\n');
  const html = [
    ...body.map((l) => `<p>${escapeHtml(l)}</p>`),
    link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p><p>${escapeHtml(link.url)}</p>` : '',
    `<p style="color:#888">${escapeHtml(automatic)}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}

/**
 * The account mails, in the language stored on the account (src/shared/i18n/<lang>/mail.json): set at
 * registration from the page's language and by the language switcher. `to` may differ from the
 * account's address (a new address being confirmed), the language never does.
 */
export const mails = {
  verifyEmail: (ctx: AppContext, to: string, who: Recipient, ref: string) => {
    const t = tr(who);
    return message(to, who, t('verifyEmail.subject'), [t('verifyEmail.body')], {
      url: `${publicBase(ctx)}/verify/email/${ref}`,
      label: t('verifyEmail.link'),
    });
  },
  changeEmail: (ctx: AppContext, to: string, who: Recipient, ref: string) => {
    const t = tr(who);
    return message(to, who, t('changeEmail.subject'), [t('changeEmail.body')], {
      url: `${publicBase(ctx)}/verify/email/${ref}`,
      label: t('changeEmail.link'),
    });
  },
  emailChangeRequested: (to: string, who: Recipient) => {
    const t = tr(who);
    return message(to, who, t('emailChangeRequested.subject'), [t('emailChangeRequested.body'), t('notYouReset')]);
  },
  emailChanged: (to: string, who: Recipient) => {
    const t = tr(who);
    return message(to, who, t('emailChanged.subject'), [`${t('emailChanged.body')} ${t('notYouContact')}`]);
  },
  resetPassword: (ctx: AppContext, to: string, who: Recipient, id: number, secret: string) => {
    const t = tr(who);
    return message(to, who, t('resetPassword.subject'), [t('resetPassword.body'), t('resetPassword.ignore')], {
      url: `${publicBase(ctx)}/recover/${id}/${secret}`,
      label: t('resetPassword.link'),
    });
  },
  passwordChanged: (to: string, who: Recipient) => {
    const t = tr(who);
    return message(to, who, t('passwordChanged.subject'), [t('passwordChanged.body')]);
  },
  mobileChanged: (to: string, who: Recipient) => {
    const t = tr(who);
    return message(to, who, t('mobileChanged.subject'), [`${t('mobileChanged.body')} ${t('notYouContact')}`]);
  },
  accountDeleted: (to: string, who: Recipient, days: number) => {
    const t = tr(who);
    return message(to, who, t('accountDeleted.subject'), [t('accountDeleted.body', { days })]);
  },
};

/** Where a mail that cannot leave is reported: a request's logger, the app's, or a script's stand-in. */
export type Log = Pick<FastifyBaseLogger, 'error'>;

/** Sends without failing the request: a mail that cannot leave is logged, and the user can ask again. */
export async function deliver(ctx: AppContext, log: Log, mail: MailMessage): Promise<void> {
  try {
    await ctx.mailer.send(mail);
  } catch (err) {
    log.error({ err, subject: mail.subject }, 'mail could not be sent');
  }
}
