// The sandbox provider's own HTTP surface, outside our /api as a third party's would be (served only
// while the sandbox is the configured provider):
//   POST /sandbox-acquirer/v1/tokens                            {number, exp_month, exp_year, cvc, name?}
//        -> 200 {id: 'tok_...', card: {last4, brand, exp_month, exp_year}}
//        -> 402 {error: {code: invalid_number | invalid_expiry | invalid_cvc, field}}
//   GET  /sandbox-acquirer/v1/challenge/{chargeId}              the confirmation step (3-D Secure-like page)
//   POST /sandbox-acquirer/v1/challenge/{chargeId}              outcome=approve|fail, then 303 to the shop
//   POST /sandbox-acquirer/v1/invoices/{invoiceId}/simulate-payment   pays a crypto invoice; the signed
//        webhook goes to /api/payment/webhook/sandbox -> {delivered: <status of that call>}
// The card number is read here and nowhere else, and never kept.
// Each route declares these answers per status below: they are the provider's own, not our API's, so they
// live here rather than in src/shared/schemas (the client's tokenizer reads them as a third party's,
// docs/decisions/0921), and the OpenAPI document of /api leaves them out.
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageBody } from '#shared/api/errors.ts';
import { msg } from '#shared/api/messages.ts';
import type { AppContext } from '../../context';
import { requestLanguage } from '../../lib/i18n';
import { translateKey } from '../../lib/message-i18n';
import * as sandbox from './sandbox-acquirer.service';
import { escapeHtml } from '../../lib/html';

const CardBody = z.strictObject({
  number: z.string().max(40),
  exp_month: z.coerce.number().int().min(1).max(12),
  exp_year: z.coerce.number().int().min(0).max(9999),
  cvc: z.string().max(8),
  name: z.string().max(200).optional(),
});

/** 200 of /tokens: the token and what may be shown of the card. */
const CardToken = z.object({
  id: z.string(),
  card: z.object({ last4: z.string(), brand: z.string(), exp_month: z.number(), exp_year: z.number() }),
});
/** 402 of /tokens: which field the provider refused. */
const CardRefused = z.object({ error: z.object({ code: z.string(), field: z.string() }) });
/** 400 and 404 of the challenge and the invoice: the provider's error code. */
const ProviderError = z.object({ error: z.object({ code: z.string() }) });
/** The confirmation page (200) and its not-found page (404). */
const Html = { content: { 'text/html': { schema: z.string() } } };
/** 303 to the shop's page once the payer answered the challenge. */
const SeeOther = z.undefined().describe('To the return address of the charge (a path of this site); no body.');

/** Only a path of this site: the challenge never sends a payer elsewhere. */
function localPath(url: string | null): string {
  if (!url) return '/checkout/cart';
  try {
    const u = new URL(url, 'http://local');
    return u.pathname.startsWith('/') && !u.pathname.startsWith('//') ? `${u.pathname}${u.search}` : '/checkout/cart';
  } catch {
    return '/checkout/cart';
  }
}

export const sandboxAcquirerRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; root: () => FastifyInstance }> = async (
  app,
  { ctx, root },
) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.post(
    '/sandbox-acquirer/v1/tokens',
    // Card testing is the first thing a tokenizer is abused for.
    {
      config: { rateLimit: { max: 30, timeWindow: '10 minutes' } },
      schema: { response: { 200: CardToken, 402: CardRefused, 429: MessageBody } },
    },
    async (req, reply) => {
      const parsed = CardBody.safeParse(req.body);
      if (!parsed.success) {
        const field = String(parsed.error.issues[0]?.path[0] ?? 'number');
        return reply.code(402).send({
          error: {
            code: `invalid_${field === 'cvc' ? 'cvc' : field.startsWith('exp') ? 'expiry' : 'number'}`,
            field,
          },
        });
      }
      try {
        return await sandbox.tokenize(ctx, parsed.data);
      } catch (err) {
        if (err instanceof sandbox.SandboxError)
          return reply.code(402).send({ error: { code: err.code, field: err.field } });
        throw err;
      }
    },
  );

  app.get<{ Params: { chargeId: string } }>(
    '/sandbox-acquirer/v1/challenge/:chargeId',
    { schema: { response: { 200: Html, 404: Html } } },
    async (req, reply) => {
      const charge = await sandbox.chargeById(ctx, req.params.chargeId);
      const lang = requestLanguage(req);
      const t = (key: string, params?: Record<string, string | number>) =>
        escapeHtml(translateKey(msg(key, params), lang));
      if (!charge)
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .send(`<p>${t('sandbox.challengeUnknown')}</p>`);
      const format = new Intl.NumberFormat(lang, { style: 'currency', currency: charge.currency });
      const amount = format.format(charge.amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
      const open = charge.status === 'requires_action';
      const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${t('sandbox.challengeTitle')}</title>
<style nonce="${reply.cspNonce.style}">body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}
.badge{display:inline-block;background:#b45309;color:#fff;padding:.2rem .5rem;border-radius:.3rem;font-size:.8rem}
button{font-size:1rem;padding:.7rem 1.2rem;margin:.3rem .3rem 0 0;border-radius:.4rem;border:1px solid #888;cursor:pointer}
button[value=approve]{background:#166534;color:#fff;border-color:#166534}</style></head><body>
<span class="badge">${t('sandbox.badge')}</span>
<h1>${t('sandbox.challengeTitle')}</h1>
<p>${t('sandbox.challengeText', { amount, last4: charge.last4 ?? '' })}</p>
${
  open
    ? `<form method="post"><button name="outcome" value="approve" type="submit">${t('sandbox.approve')}</button>
<button name="outcome" value="fail" type="submit">${t('sandbox.fail')}</button></form>`
    : `<p>${t('sandbox.challengeDone')}</p><p><a href="${escapeHtml(localPath(charge.returnUrl))}">${t('sandbox.back')}</a></p>`
}
</body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );

  app.post<{ Params: { chargeId: string }; Body: { outcome?: string } }>(
    '/sandbox-acquirer/v1/challenge/:chargeId',
    { schema: { response: { 303: SeeOther, 400: ProviderError, 404: ProviderError } } },
    async (req, reply) => {
      const outcome = req.body?.outcome;
      if (outcome !== 'approve' && outcome !== 'fail')
        return reply.code(400).send({ error: { code: 'invalid_outcome' } });
      try {
        const charge = await sandbox.answerChallenge(ctx, req.params.chargeId, outcome === 'approve');
        return reply.redirect(localPath(charge.returnUrl), 303);
      } catch (err) {
        if (err instanceof sandbox.SandboxError) return reply.code(404).send({ error: { code: err.code } });
        throw err;
      }
    },
  );

  app.post<{ Params: { invoiceId: string } }>(
    '/sandbox-acquirer/v1/invoices/:invoiceId/simulate-payment',
    { schema: { response: { 200: z.object({ delivered: z.number() }), 404: ProviderError } } },
    async (req, reply) => {
      try {
        const { body, signature } = await sandbox.simulateInvoicePayment(ctx, req.params.invoiceId);
        // Delivered the way a processor would: an HTTP POST of the signed bytes to the merchant's webhook.
        const res = await root().inject({
          method: 'POST',
          url: '/api/payment/webhook/sandbox',
          headers: { 'content-type': 'application/json', [sandbox.SANDBOX_SIGNATURE_HEADER]: signature },
          payload: body,
        });
        return { delivered: res.statusCode };
      } catch (err) {
        if (err instanceof sandbox.SandboxError) return reply.code(404).send({ error: { code: err.code } });
        throw err;
      }
    },
  );
};
