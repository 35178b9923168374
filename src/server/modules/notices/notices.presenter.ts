// A notice as the API sends it: its keys read in the language of whoever opens it, when they open it.
import { msg } from '#shared/api/messages.ts';
import type { Language } from '#shared/constants.ts';
import type { Notice } from '#shared/schemas/notices.ts';
import { translateKey } from '../../lib/message-i18n';
import type { NoticeRow } from './notices.repo';

export function presentNotice(r: NoticeRow, lang: Language): Notice {
  return {
    id: r.id,
    kind: r.kind,
    title: translateKey(msg(r.title, r.params), lang),
    message: translateKey(msg(r.message, r.params), lang),
    path: r.path,
    read: !!r.readAt,
    created_at: r.createdAt.toISOString(),
  };
}
