// The Get Help contact form (/help): the client's form and POST /api/help/contact read the same rules.
import { z } from 'zod';
import { requiredString } from '../api/fields';
import { emailField } from './auth';

export const HELP_MESSAGE_MAX = 5000;

/** The questions of /help, in order: catalogue keys pages:help.faq.<key>.q and .a (SPA and server HTML). */
export const HELP_FAQ = ['what', 'book', 'verified', 'join', 'pay', 'report', 'language'] as const;

export const HelpContactBody = z.strictObject({
  name: requiredString('Name', 100),
  email: emailField('Email'),
  subject: requiredString('Subject', 150),
  message: requiredString('Message', HELP_MESSAGE_MAX),
});
export type HelpContactBody = z.infer<typeof HelpContactBody>;
