// Calls of the auth area (docs/decisions/0100) and the hooks the screens and the login modal use.
// Bodies and answers are the shared Zod types; failures go through the API client's catalogue.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { NotificationBody } from '#shared/api/errors.ts';
import type {
  ConnectBody,
  ForgotPasswordBody,
  LinkedAccount,
  LinksResponse,
  LoginBody,
  LogoutResponse,
  RecoverResponse,
  RegisterBody,
  ResetPasswordBody,
  SessionResponse,
  VerifyBody,
} from '#shared/schemas/auth.ts';
import { currentUserKey, type CurrentUser } from '#client/lib/app-data.ts';
import { api } from '#client/lib/api.ts';
import { accountKeys, linkedAccountsKey } from '#client/lib/query-keys.ts';

export type { LinkedAccount, SessionResponse };

export const authKeys = {
  links: linkedAccountsKey,
  recover: (id: string, hash: string) => ['auth', 'recover', id, hash] as const,
  verify: (type: string, target: string) => ['auth', 'verify', type, target] as const,
};

const post = <T>(path: string, body?: unknown, extra: { handle?: number[]; loading?: boolean } = {}) =>
  api<T>(path, { method: 'POST', body, loading: extra.loading ?? true, handle: extra.handle });

export const login = (body: LoginBody) => post<SessionResponse>('/auth/login', body);
export const register = (body: RegisterBody) => post<SessionResponse>('/auth/register', body);
/** Email links need no session; a PIN needs the session of the account it was sent for. */
export const verify = (body: VerifyBody, handle?: number[]) =>
  post<NotificationBody>('/auth/verify', body, { handle, loading: body.type === 'pin' });
export const resendVerification = () => post<NotificationBody>('/auth/resendVerification');
export const forgotPassword = (body: ForgotPasswordBody) => post<NotificationBody>('/auth/forgotPassword', body);
/** Whether a /recover/{id}/{hash} link still works; a dead link answers 422, which the screen shows itself. */
export const checkRecoverLink = (id: string, hash: string) =>
  post<RecoverResponse>('/recover', { id, hash }, { handle: [422], loading: false });
export const resetPassword = (body: ResetPasswordBody) => post<NotificationBody>('/auth/resetPassword', body);
export const connectAccount = (body: ConnectBody) => post<LinksResponse>('/auth/connect', body);
export const switchAccount = (userId: number) => post<SessionResponse>('/auth/switch', { user_id: userId });
export const unlinkAccount = (userId: number) => post<LinksResponse>('/auth/unlink', { user_id: userId });

export async function fetchLinks(signal?: AbortSignal): Promise<LinkedAccount[]> {
  return (await api<LinksResponse>('/auth/links', { signal })).data;
}

/** Accounts connected to the signed-in one. */
export function useLinkedAccounts(enabled = true) {
  return useQuery({ queryKey: authKeys.links, queryFn: ({ signal }) => fetchLinks(signal), enabled });
}

/**
 * After a sign-in (page, login modal, register): the new user is known at once and every query on
 * screen asks again, so a page that met a 401 fills itself in (spec section 4: the login modal).
 */
export function useSessionStarted(): (user: CurrentUser) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (user: CurrentUser) => {
      queryClient.setQueryData(currentUserKey, user);
      await queryClient.invalidateQueries();
    },
    [queryClient],
  );
}

/** A safe place to go after signing in: a path of this site, never another origin. */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}

/** Spec section 4: logging out answers the URL the browser goes to next. */
export async function logout(): Promise<string> {
  const response = await api<LogoutResponse | null>('/auth/logout', { method: 'POST', loading: true });
  return typeof response?.data === 'string' && response.data ? response.data : '/';
}

// ---------------------------------------------------------------- writes

/** Login and register: the mutation settles once the new user is known and the screen asked again. */
function useSessionMutation<B>(call: (body: B) => Promise<SessionResponse>) {
  const started = useSessionStarted();
  return useMutation({ mutationFn: call, onSuccess: (session) => started(session.data) });
}

export const useLogin = () => useSessionMutation(login);
export const useRegister = () => useSessionMutation(register);

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
/** Its notice leads to /login. */
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
export const useResendVerification = () => useMutation({ mutationFn: resendVerification });

/** The PIN of a new mobile number: the account shows the number as confirmed afterwards. */
export function useVerifyPin(hash: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pin: string) => verify({ type: 'pin', target: hash, pin }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserKey }),
        queryClient.invalidateQueries({ queryKey: accountKeys.all }),
      ]),
  });
}

/** Connecting and unlinking answer the new list of linked accounts. */
export function useConnectAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectAccount,
    onSuccess: (answer) => queryClient.setQueryData(authKeys.links, answer.data),
  });
}

export function useUnlinkAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkAccount,
    onSuccess: (answer) => queryClient.setQueryData(authKeys.links, answer.data),
  });
}

export function useSwitchAccount() {
  return useMutation({
    mutationFn: switchAccount,
    // A new session for another person: a full load leaves nothing of the old one behind.
    onSuccess: (session) => window.location.assign(session.path),
  });
}
