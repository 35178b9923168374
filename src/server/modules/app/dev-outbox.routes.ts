// Development only: the mails and texts the outbox holds (<DATA_DIR>/outbox), so a developer can
// click the verification and reset links. app.ts registers this only when NODE_ENV=development.
// No response schemas, on purpose: the answers are an HTML page and the outbox's files as stored (bytes,
// not JSON answers a serializer encodes), outside /api and its OpenAPI document; the only JSON is the
// {message} of a 404 (docs/decisions/0925).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { escapeHtml } from '../../lib/html';
import { outboxDir } from '../../lib/mailer';
import { msg } from '#shared/api/messages.ts';

const linkify = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

const FILE = /^(mail|sms)-[0-9TZ-]+-[0-9a-f]{8}\.(eml|json)$/;

export const devOutboxRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  if (ctx.env.NODE_ENV !== 'development') throw new Error('The dev outbox is for development only.');
  const dir = outboxDir(ctx.env);

  app.get('/dev/outbox', async (_req, reply) => {
    const files = (await fs.readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.json') && FILE.test(f))
      .sort()
      .reverse();
    const items = await Promise.all(
      files.slice(0, 200).map(async (f) => {
        const m = JSON.parse(await fs.readFile(path.join(dir, f), 'utf8')) as Record<string, string>;
        const title = f.startsWith('sms-') ? `SMS to ${m.to}` : `${m.subject} — to ${m.to}`;
        const raw = f.startsWith('mail-')
          ? ` · <a href="/dev/outbox/${f.replace(/\.json$/, '.eml')}">raw .eml</a>`
          : '';
        return `<li><h3>${escapeHtml(title)}</h3><small>${escapeHtml(m.date ?? '')} · <a href="/dev/outbox/${f}">json</a>${raw}</small><pre>${linkify(m.text ?? '')}</pre></li>`;
      }),
    );
    const body = items.length ? `<ol>${items.join('\n')}</ol>` : '<p>The outbox is empty.</p>';
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Outbox</title><h1>Outbox (${files.length})</h1><p>${escapeHtml(dir)}</p>${body}`,
      );
  });

  app.get(
    '/dev/outbox/:file',
    { schema: { params: z.object({ file: z.string().regex(FILE) }) } },
    async (req, reply) => {
      const data = await fs.readFile(path.join(dir, req.params.file)).catch(() => null);
      if (!data) return reply.code(404).send({ message: msg('errors.notFound') });
      const type = req.params.file.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
      return reply.type(type).header('cache-control', 'no-store').send(data);
    },
  );
};
