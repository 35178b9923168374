// Calls of the account screen /edit/account/{id} (docs/decisions/0100): read the account, change
// email, mobile, password and username, delete it. Every change answers a notification.
import { useQuery } from '@tanstack/react-query';
import type { NotificationBody } from '#shared/api/errors.ts';
import type {
  AccountResponse,
  AccountView,
  ChangeEmailBody,
  ChangeMobileBody,
  ChangePasswordBody,
  ChangeUsernameBody,
  DeleteAccountBody,
} from '#shared/schemas/account.ts';
import { api } from '#client/lib/api.ts';

export type { AccountView };

export const accountKeys = {
  all: ['account'] as const,
  account: (id: number) => ['account', id] as const,
};

export async function fetchAccount(id: number, signal?: AbortSignal): Promise<AccountView> {
  return (await api<AccountResponse>(`/account/${id}`, { signal })).data;
}

export function useAccount(id: number) {
  return useQuery({
    queryKey: accountKeys.account(id),
    queryFn: ({ signal }) => fetchAccount(id, signal),
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 0,
  });
}

const change = <T extends object>(id: number, what: string, body: T) =>
  api<NotificationBody>(`/account/${id}/${what}`, { method: 'POST', body, loading: true });

export const changeEmail = (id: number, body: ChangeEmailBody) => change(id, 'email', body);
/** Answers a notification whose path is /verify/pin/{hash}: the PIN screen. */
export const changeMobile = (id: number, body: ChangeMobileBody) => change(id, 'mobile', body);
export const changePassword = (id: number, body: ChangePasswordBody) => change(id, 'password', body);
export const changeUsername = (id: number, body: ChangeUsernameBody) => change(id, 'username', body);
export const deleteAccount = (id: number, body: DeleteAccountBody) => change(id, 'delete', body);
