// POST /api/help/contact: the Get Help form. Anyone may write; a few messages an hour per address.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NotificationBody } from '#shared/api/errors.ts';
import { errorAnswers, WRITE_ERRORS } from '#shared/schemas/route-answers.ts';
import { HelpContactBody } from '#shared/schemas/help.ts';
import type { AppContext } from '../../context';
import { sent } from '../../lib/declared-answers';
import { callLanguage } from '../../lib/message-i18n';
import * as service from './help.service';

export const HELP_CONTACT_LIMIT = { max: 5, timeWindow: '1 hour' };

export const helpRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/help/contact',
    {
      schema: { body: HelpContactBody, response: { 200: NotificationBody, ...WRITE_ERRORS, ...errorAnswers(429) } },
      config: { rateLimit: HELP_CONTACT_LIMIT },
    },
    async (req) => sent(await service.contact(ctx, req.body, req.ip, callLanguage(req))),
  );
};
