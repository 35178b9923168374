// The sandbox provider's own HTTP surface, outside our /api as a third party's would be (served only
// while the sandbox is the configured provider):
//   POST /sandbox-acquirer/v1/tokens                            {number, exp_month, exp_year, cvc, name?}
//        -> 200 {id: 'tok_...', card: {last4, brand, exp_month, exp_year}}
//        -> 402 {error: {code: invalid_number | invalid_expiry | invalid_cvc, field}}
//   GET  /sandbox-acquirer/v1/challenge/{chargeId}              the confirmation step (3-D Secure-like page)
//   POST /sandbox-acquirer/v1/challenge/{chargeId}              outcome=approve|fail, then 303 to the shop
//   POST /sandbox-acquirer/v1/invoices/{invoiceId}/simulate-payment   pays a crypto invoice; the signed
//        webhook goes to /api/payment/webhook/sandbox -> {delivered: <status of that call>}
//   GET  /sandbox-acquirer/v1/pay?key&amount&currency&return&expires&signature   the hosted payment page
//        (docs/decisions/0421): amount, test cards, card fields, "save on this device", TEST marking
//   POST /sandbox-acquirer/v1/pay                               the page's form: charges the card once per key,
//        then the signed notification goes to /api/payment/webhook/sandbox (unless held) and 303 to the shop
//   GET  /sandbox-acquirer/v1/charges/{chargeId}                a hosted charge's outcome and its notification
//   POST /sandbox-acquirer/v1/charges/{chargeId}/notify         sends (again) or releases its notification
// The card number is read here and nowhere else, and never kept.
// Each route declares these answers per status below: they are the provider's own, not our API's, so they
// live here rather than in src/shared/schemas (the client's tokenizer reads them as a third party's,
// docs/decisions/0921), and the OpenAPI document of /api leaves them out.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageBody } from '#shared/api/errors.ts';
import { msg } from '#shared/api/messages.ts';
import type { AppContext } from '../../context';
import { requestLanguage } from '../../lib/i18n';
import { translateKey } from '../../lib/message-i18n';
import * as sandbox from './sandbox-acquirer.service';
import { escapeHtml } from '../../lib/html';
import { SANDBOX_TEST_CARDS } from '#shared/sandbox-cards.ts';

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

/** The acquirer's own cookie ("save on this device"): a token of the card, on this browser, for its pages. */
const SAVED_CARD_COOKIE = 'sandbox_saved_card';
const PAGE_PATH = '/sandbox-acquirer/v1/pay';

const PageForm = z.object({
  number: z.string().max(40).default(''),
  name: z.string().max(200).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(8).default(''),
  save: z.string().max(5).optional(),
  hold: z.string().max(5).optional(),
  saved: z.string().max(5).optional(),
});

/** The page's style: a third party's page, plain and clearly marked as a test provider. */
const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:1.5rem auto;padding:0 1rem;color:#222}
.test{background:#fef3c7;border:2px solid #b45309;border-radius:.4rem;padding:.6rem .8rem;margin-bottom:1rem}
.badge{display:inline-block;background:#b45309;color:#fff;padding:.2rem .5rem;border-radius:.3rem;font-size:.8rem;font-weight:bold}
.amount{font-size:1.6rem;font-weight:bold;margin:.3rem 0 1rem}
label{display:block;margin:.7rem 0 .2rem;font-weight:600}
input[type=text]{box-sizing:border-box;width:100%;font-size:1.1rem;padding:.5rem;border:1px solid #888;border-radius:.3rem}
.row{display:flex;gap:.8rem}.row>div{flex:1}
.check{display:flex;gap:.5rem;align-items:center;font-weight:normal;margin:.8rem 0}
.control{border:1px dashed #b45309;border-radius:.4rem;padding:.2rem .6rem;margin:1rem 0}
.error{color:#b91c1c;font-weight:600}
.cards{font-size:.9rem;padding-left:1.2rem}.cards code{white-space:nowrap}
button{font-size:1rem;padding:.7rem 1.2rem;margin:.3rem .3rem 0 0;border-radius:.4rem;border:1px solid #888;cursor:pointer}
button.pay{background:#166534;color:#fff;border-color:#166534;width:100%;font-size:1.1rem}
button[value=approve]{background:#166534;color:#fff;border-color:#166534}`;

type T = (key: string, params?: Record<string, string | number>) => string;

function page(lang: string, nonce: string, title: string, body: string) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<link rel="icon" href="data:,"><title>${title}</title><style nonce="${nonce}">${STYLE}</style></head><body>
${body}
</body></html>`;
}

const testBanner = (t: T) =>
  `<div class="test" role="note" data-testid="sandbox-test-provider"><span class="badge">${t('sandbox.badge')}</span>
<p>${t('sandbox.testProvider')}</p></div>`;

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');

export const sandboxAcquirerRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; root: () => FastifyInstance }> = async (
  app,
  { ctx, root },
) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const translatorOf = (req: FastifyRequest): { lang: string; t: T } => {
    const lang = requestLanguage(req);
    return { lang, t: (key, params) => escapeHtml(translateKey(msg(key, params), lang)) };
  };
  const money = (lang: string, amount: number, currency: string) => {
    const format = new Intl.NumberFormat(lang, { style: 'currency', currency });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  };
  const html = (reply: FastifyReply, code: number, body: string) =>
    reply.code(code).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

  /** Delivered the way an acquirer does: an HTTP POST of the signed bytes to the merchant's webhook. */
  const deliver = async (chargeId: string) => {
    const { body, signature } = await sandbox.chargeNotification(ctx, chargeId);
    const res = await root().inject({
      method: 'POST',
      url: '/api/payment/webhook/sandbox',
      headers: { 'content-type': 'application/json', [sandbox.SANDBOX_SIGNATURE_HEADER]: signature },
      payload: body,
    });
    return res.statusCode;
  };

  /** Where the payer goes once the card has an outcome: the shop, or the charge's page while held. */
  const afterOutcome = async (charge: sandbox.SandboxCharge) => {
    if (charge.status === 'requires_action') return `/sandbox-acquirer/v1/challenge/${charge.id}`;
    if (!sandbox.notifiesNow(charge)) return `/sandbox-acquirer/v1/charges/${charge.id}`;
    await deliver(charge.id);
    return localPath(charge.returnUrl);
  };

  const payForm = async (
    req: FastifyRequest,
    reply: FastifyReply,
    order: sandbox.PageOrder,
    problem: { code: string; field: string } | null,
    values: { name?: string; save?: boolean; hold?: boolean } = {},
  ) => {
    const { lang, t } = translatorOf(req);
    const amount = escapeHtml(money(lang, order.amount, order.currency));
    const saved = await sandbox.savedCard(ctx, req.cookies[SAVED_CARD_COOKIE]);
    const fields = hidden(sandbox.pageFields(ctx, order));
    const error = (field: string) =>
      problem && problem.field === field
        ? `<p class="error" role="alert" data-testid="sandbox-error">${t(`sandbox.refused.${problem.code}`)}</p>`
        : '';
    const cards = SANDBOX_TEST_CARDS.map(
      (c) => `<li><code>${c.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code> ${t(`sandbox.cards.${c.behaviour}`)}</li>`,
    ).join('');
    const check = (name: string, on: boolean | undefined, label: string) =>
      `<label class="check"><input type="checkbox" name="${name}" value="on"${on ? ' checked' : ''}> ${label}</label>`;
    const body = `${testBanner(t)}
<h1>${t('sandbox.payTitle')}</h1>
<p class="amount" data-testid="sandbox-amount">${amount}</p>
${
  saved
    ? `<form method="post" action="${PAGE_PATH}" data-testid="sandbox-saved-card">${fields}<input type="hidden" name="saved" value="on">
<button class="pay" type="submit">${t('sandbox.paySaved', { last4: saved.last4 })}</button></form><p>${t('sandbox.orNewCard')}</p>`
    : ''
}
<form method="post" action="${PAGE_PATH}" data-testid="sandbox-card-form" autocomplete="off">${fields}
${problem && problem.field === 'card' ? `<p class="error" role="alert" data-testid="sandbox-error">${t(`sandbox.refused.${problem.code}`)}</p>` : ''}
<label for="number">${t('sandbox.number')}</label>
<input type="text" id="number" name="number" inputmode="numeric" autocomplete="cc-number" required>
${error('number')}
<label for="name">${t('sandbox.name')}</label>
<input type="text" id="name" name="name" autocomplete="cc-name" value="${escapeHtml(values.name ?? '')}">
<div class="row"><div><label for="expiry">${t('sandbox.expiry')}</label>
<input type="text" id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required>
${error('exp_year')}</div>
<div><label for="cvc">${t('sandbox.cvc')}</label>
<input type="text" id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required>${error('cvc')}</div></div>
${check('save', values.save, t('sandbox.save'))}
<div class="control">${check('hold', values.hold, t('sandbox.hold'))}</div>
<button class="pay" type="submit">${t('sandbox.pay', { amount: money(lang, order.amount, order.currency) })}</button>
</form>
<p>${t('sandbox.testCards')}</p><ul class="cards" data-testid="sandbox-test-cards">${cards}</ul>
<p><a href="${escapeHtml(localPath(order.returnUrl))}" data-testid="sandbox-cancel">${t('sandbox.cancel')}</a></p>`;
    return html(reply, problem ? 402 : 200, page(lang, reply.cspNonce.style, t('sandbox.payTitle'), body));
  };

  const pageProblem = (req: FastifyRequest, reply: FastifyReply, code: number, key: string, back?: string) => {
    const { lang, t } = translatorOf(req);
    const link = back ? `<p><a href="${escapeHtml(localPath(back))}">${t('sandbox.back')}</a></p>` : '';
    return html(
      reply,
      code,
      page(
        lang,
        reply.cspNonce.style,
        t('sandbox.payTitle'),
        `${testBanner(t)}<p data-testid="sandbox-problem">${t(key)}</p>${link}`,
      ),
    );
  };

  app.get(
    PAGE_PATH,
    { schema: { response: { 200: Html, 303: SeeOther, 400: Html, 410: Html } } },
    async (req, reply) => {
      const order = sandbox.readPage(ctx, req.query as Record<string, unknown>);
      if (!order) return pageProblem(req, reply, 400, 'sandbox.pageInvalid');
      const charge = await sandbox.chargeByKey(ctx, order.key);
      if (charge) return reply.redirect(`/sandbox-acquirer/v1/charges/${charge.id}`, 303);
      if (sandbox.pageExpired(ctx, order)) return pageProblem(req, reply, 410, 'sandbox.pageExpired', order.returnUrl);
      return payForm(req, reply, order, null);
    },
  );

  app.post(
    PAGE_PATH,
    // Card testing is the first thing a payment page is abused for.
    {
      config: { rateLimit: { max: 30, timeWindow: '10 minutes' } },
      schema: { response: { 303: SeeOther, 400: Html, 402: Html, 410: Html, 429: MessageBody } },
    },
    async (req, reply) => {
      const raw = (req.body ?? {}) as Record<string, unknown>;
      const order = sandbox.readPage(ctx, raw);
      if (!order) return pageProblem(req, reply, 400, 'sandbox.pageInvalid');
      const form = PageForm.safeParse(raw);
      if (!form.success) return pageProblem(req, reply, 400, 'sandbox.pageInvalid');
      const values = { name: form.data.name, save: form.data.save === 'on', hold: form.data.hold === 'on' };
      const existing = await sandbox.chargeByKey(ctx, order.key);
      if (existing) return reply.redirect(await afterOutcome(existing), 303);
      if (sandbox.pageExpired(ctx, order)) return pageProblem(req, reply, 410, 'sandbox.pageExpired', order.returnUrl);
      let card: { token: string } | sandbox.CardInput;
      if (form.data.saved === 'on') {
        const saved = await sandbox.savedCard(ctx, req.cookies[SAVED_CARD_COOKIE]);
        if (!saved) return payForm(req, reply, order, { code: 'no_such_token', field: 'card' }, values);
        card = { token: saved.token };
      } else {
        const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.data.expiry);
        if (!expiry) return payForm(req, reply, order, { code: 'invalid_expiry', field: 'exp_year' }, values);
        card = {
          number: form.data.number,
          exp_month: Number(expiry[1]),
          exp_year: Number(expiry[2]),
          cvc: form.data.cvc,
        };
        if (card.exp_month < 1 || card.exp_month > 12)
          return payForm(req, reply, order, { code: 'invalid_expiry', field: 'exp_year' }, values);
      }
      let paid;
      try {
        paid = await sandbox.payOnPage(ctx, order, card, values.hold);
      } catch (err) {
        if (err instanceof sandbox.SandboxError)
          return payForm(
            req,
            reply,
            order,
            { code: err.code, field: err.field === 'card_token' ? 'card' : err.field },
            values,
          );
        throw err;
      }
      if (values.save)
        reply.setCookie(SAVED_CARD_COOKIE, paid.token, {
          path: '/sandbox-acquirer/',
          httpOnly: true,
          sameSite: 'lax',
          secure: req.protocol === 'https',
          maxAge: 365 * 86_400,
        });
      return reply.redirect(await afterOutcome(paid.charge), 303);
    },
  );

  app.get<{ Params: { chargeId: string } }>(
    '/sandbox-acquirer/v1/charges/:chargeId',
    { schema: { response: { 200: Html, 303: SeeOther, 404: Html } } },
    async (req, reply) => {
      const charge = await sandbox.chargeById(ctx, req.params.chargeId);
      if (!charge?.hosted) return pageProblem(req, reply, 404, 'sandbox.chargeUnknown');
      if (charge.status === 'requires_action')
        return reply.redirect(`/sandbox-acquirer/v1/challenge/${charge.id}`, 303);
      const { lang, t } = translatorOf(req);
      const amount = money(lang, charge.amount, charge.currency);
      const state = charge.notificationHeld ? 'held' : charge.notifiedAt ? 'sent' : 'waiting';
      const body = `${testBanner(t)}
<h1>${t('sandbox.payTitle')}</h1>
<p data-testid="sandbox-charge" data-status="${charge.status}">${t(charge.status === 'succeeded' ? 'sandbox.chargeSucceeded' : 'sandbox.chargeFailed', { amount, last4: charge.last4 ?? '' })}</p>
<div class="control" data-testid="sandbox-notification" data-state="${state}"><p>${t(`sandbox.notification.${state}`)}</p>
<form method="post" action="/sandbox-acquirer/v1/charges/${escapeHtml(charge.id)}/notify">
<button type="submit">${t(state === 'sent' ? 'sandbox.notifyAgain' : 'sandbox.notify')}</button></form></div>
<p><a href="${escapeHtml(localPath(charge.returnUrl))}" data-testid="sandbox-back">${t('sandbox.back')}</a></p>`;
      return html(reply, 200, page(lang, reply.cspNonce.style, t('sandbox.payTitle'), body));
    },
  );

  app.post<{ Params: { chargeId: string } }>(
    '/sandbox-acquirer/v1/charges/:chargeId/notify',
    { schema: { response: { 200: z.object({ delivered: z.number() }), 303: SeeOther, 404: ProviderError } } },
    async (req, reply) => {
      try {
        const delivered = await deliver(req.params.chargeId);
        // The page's button goes back to the shop; a test's call reads what the merchant answered.
        if (req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
          const charge = await sandbox.chargeById(ctx, req.params.chargeId);
          return reply.redirect(localPath(charge?.returnUrl ?? null), 303);
        }
        return { delivered };
      } catch (err) {
        if (err instanceof sandbox.SandboxError) return reply.code(404).send({ error: { code: err.code } });
        throw err;
      }
    },
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
        // A hosted charge's outcome goes to the merchant as its notification (unless held).
        if (charge.hosted) return reply.redirect(await afterOutcome(charge), 303);
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
