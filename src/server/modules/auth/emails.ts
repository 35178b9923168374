// The messages the account flows send. Links are built on PUBLIC_URL, never on the request's Host
// header (a forged Host would otherwise put an attacker's domain into a reset mail).
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { MailMessage } from '../../lib/mailer';

export function publicBase(ctx: AppContext): string {
  return (ctx.env.PUBLIC_URL ?? `http://localhost:${ctx.env.PORT}`).replace(/\/+$/, '');
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function message(to: string, subject: string, lines: string[], link?: { url: string; label: string }): MailMessage {
  const text = [
    ...lines,
    ...(link ? ['', `${link.label}: ${link.url}`] : []),
    '',
    '-- ',
    'This message was sent automatically.',
  ].join('\n');
  const html = [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p><p>${escapeHtml(link.url)}</p>` : '',
    '<p style="color:#888">This message was sent automatically.</p>',
  ].join('\n');
  return { to, subject, text, html };
}

export const mails = {
  verifyEmail: (ctx: AppContext, to: string, username: string, ref: string) =>
    message(
      to,
      'Confirm your email address',
      [`Hello ${username},`, 'please confirm your email address by opening the link below. It is valid for 48 hours.'],
      { url: `${publicBase(ctx)}/verify/email/${ref}`, label: 'Confirm my email address' },
    ),
  changeEmail: (ctx: AppContext, to: string, username: string, ref: string) =>
    message(
      to,
      'Confirm your new email address',
      [
        `Hello ${username},`,
        'you asked to use this address for your account. Open the link below to confirm it; it is valid for 24 hours.',
      ],
      { url: `${publicBase(ctx)}/verify/email/${ref}`, label: 'Confirm my new email address' },
    ),
  emailChangeRequested: (to: string, username: string) =>
    message(to, 'Your email address is about to change', [
      `Hello ${username},`,
      'someone signed in to your account asked to move it to another email address. It changes only when the link sent to the new address is opened.',
      'If this was not you, change your password now.',
    ]),
  emailChanged: (to: string, username: string) =>
    message(to, 'Your email address was changed', [
      `Hello ${username},`,
      'your account now uses another email address. If this was not you, contact us at once.',
    ]),
  resetPassword: (ctx: AppContext, to: string, username: string, id: number, secret: string) =>
    message(
      to,
      'Reset your password',
      [
        `Hello ${username},`,
        'open the link below to choose a new password. It works once and is valid for one hour.',
        'If you did not ask for this, ignore this message.',
      ],
      { url: `${publicBase(ctx)}/recover/${id}/${secret}`, label: 'Choose a new password' },
    ),
  passwordChanged: (to: string, username: string) =>
    message(to, 'Your password was changed', [
      `Hello ${username},`,
      'the password of your account was changed and every other session was signed out. If this was not you, reset your password now.',
    ]),
  mobileChanged: (to: string, username: string) =>
    message(to, 'Your mobile number was changed', [
      `Hello ${username},`,
      'a new mobile number was confirmed for your account. If this was not you, contact us at once.',
    ]),
  accountDeleted: (to: string, username: string, days: number) =>
    message(to, 'Your account was deleted', [
      `Hello ${username},`,
      `your account was deleted and your profile is hidden. All its data will be removed within ${days} days.`,
    ]),
};

/** Sends without failing the request: a mail that cannot leave is logged, and the user can ask again. */
export async function deliver(ctx: AppContext, log: FastifyBaseLogger, mail: MailMessage): Promise<void> {
  try {
    await ctx.mailer.send(mail);
  } catch (err) {
    log.error({ err, subject: mail.subject }, 'mail could not be sent');
  }
}
