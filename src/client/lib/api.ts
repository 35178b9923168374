// The one fetch wrapper of the client. Every call goes under /api and passes through the error
// catalogue of spec section 8, so screens only deal with the happy path:
//   422 -> validation-error dialog, 403/429 -> error notification with the body's message,
//   401 -> login modal, 404 -> page-not-found screen, anything else -> a generic error notice;
//   any error switches the loading indicator off; a `type: 'notification'` body raises a notice.
import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from '#shared/constants.ts';
import type { MessageBody, NotificationBody, ValidationErrorBody } from '#shared/api/errors.ts';
import { readCookie } from './cookies';
import { notify, openLoginModal, showValidationErrors } from './dialogs';
import { i18n } from './i18n';
import { loading } from './loading';
import { goToNotFound } from './navigation';

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as is when it is FormData (uploads). */
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Statuses the caller handles itself: the catalogue stays silent for them (the error is still thrown). */
  handle?: number[];
  /** Cover the view with the spinner while the call runs. */
  loading?: boolean;
}

export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

export async function api<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const { method = 'GET', body, query, signal, handle = [] } = request;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const csrf = readCookie(CSRF_COOKIE);
  if (csrf) headers[CSRF_HEADER] = csrf;
  // The server writes its error and notice texts in the language the page shows.
  if (i18n.language) headers['x-language'] = i18n.language;

  if (request.loading) loading.start();
  try {
    let response: Response;
    try {
      response = await fetch(apiUrl(path, query), {
        method,
        headers,
        body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
    } catch (cause) {
      // A cancelled query is not an error the visitor needs to hear about.
      if (isAbort(cause)) throw cause;
      const error = new ApiError(0, null, cause instanceof Error ? cause.message : 'Network error');
      report(error, handle);
      throw error;
    }

    const payload = await readBody(response);
    if (!response.ok) {
      const error = new ApiError(response.status, payload, messageOf(payload) ?? response.statusText);
      report(error, handle);
      throw error;
    }
    if (isNotification(payload)) void raiseNotification(payload);
    return payload as T;
  } finally {
    if (request.loading) loading.stop();
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    try {
      return await response.json();
    } catch {
      return null;
    }
  }
  const text = await response.text();
  return text === '' ? null : text;
}

/** Applies the error catalogue. Exported for the few callers that catch first and report later. */
export function report(error: ApiError, handled: number[] = []): void {
  loading.off();
  if (handled.includes(error.status)) return;
  const t = i18n.t.bind(i18n);
  switch (error.status) {
    case 422:
      if (isValidationBody(error.body)) {
        showValidationErrors(error.body);
        return;
      }
      break;
    case 401:
      openLoginModal();
      return;
    case 404:
      goToNotFound();
      return;
    case 403:
    case 429:
      void notify({
        title: t('common:dialog.errorTitle'),
        message: error.message,
        icon: 'error',
        ok: t('common:dialog.ok'),
      });
      return;
  }
  // Spec: "other status handling: not shown". A 4xx carries a message meant for people; a 5xx
  // or a network failure does not (the server hides internals), so say something useful instead.
  const message =
    error.status === 0
      ? t('common:errors.network')
      : error.status >= 500 || !messageOf(error.body)
        ? t('common:errors.generic')
        : error.message;
  void notify({ title: t('common:dialog.errorTitle'), message, icon: 'error', ok: t('common:dialog.ok') });
}

function raiseNotification(body: NotificationBody): Promise<boolean> {
  return notify({
    title: body.title,
    message: body.message,
    html: body.html,
    icon: body.icon,
    ok: i18n.t('common:dialog.ok'),
    path: body.path,
    reload: body.reload,
  });
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && typeof (body as MessageBody).message === 'string')
    return (body as MessageBody).message;
  return undefined;
}

function isValidationBody(body: unknown): body is ValidationErrorBody {
  return (
    !!body &&
    typeof body === 'object' &&
    typeof (body as ValidationErrorBody).message === 'string' &&
    !!(body as ValidationErrorBody).errors &&
    typeof (body as ValidationErrorBody).errors === 'object'
  );
}

function isNotification(body: unknown): body is NotificationBody {
  return (
    !!body &&
    typeof body === 'object' &&
    (body as NotificationBody).type === 'notification' &&
    typeof (body as NotificationBody).message === 'string'
  );
}
