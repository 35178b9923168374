// Calls of the account screen /edit/account/{id} (docs/decisions/0100): read the account, change
// email, mobile, password and username, delete it. Every change answers a notification.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
import { currentUserKey, useSessionEnded } from '#client/lib/app-data.ts';
import { api } from '#client/lib/api.ts';
import { accountKeys, linkedAccountsKey } from '#client/lib/query-keys.ts';

export type { AccountView };

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

// ---------------------------------------------------------------- writes

/** Which cached answers a change makes stale: the account screen, and the user data when it shows there too. */
type Stale = 'nothing' | 'account' | 'account and user' | 'links';

function useAccountChange<B>(id: number, call: (id: number, body: B) => Promise<NotificationBody>, stale: Stale) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => call(id, body),
    onSuccess: () =>
      Promise.all([
        stale !== 'nothing' && queryClient.invalidateQueries({ queryKey: accountKeys.account(id) }),
        stale === 'account and user' && queryClient.invalidateQueries({ queryKey: currentUserKey }),
        stale === 'links' && queryClient.invalidateQueries({ queryKey: linkedAccountsKey }),
      ]),
  });
}

/** The new address waits for its link (pending_email); the user data holds email_verified. */
export const useChangeEmail = (id: number) => useAccountChange(id, changeEmail, 'account and user');
/** The new number waits for its PIN (pending_mobile); the answer's notice leads to the PIN screen. */
export const useChangeMobile = (id: number) => useAccountChange(id, changeMobile, 'account');
export const useChangePassword = (id: number) => useAccountChange(id, changePassword, 'links');
export const useChangeUsername = (id: number) => useAccountChange(id, changeUsername, 'account and user');

/** The answer's notice leads home (or back to the admin's list); deleting one's own account ends the session. */
export function useDeleteAccount(id: number, isSelf: boolean) {
  const ended = useSessionEnded();
  return useMutation({
    mutationFn: (body: DeleteAccountBody) => deleteAccount(id, body),
    onSuccess: () => {
      if (isSelf) ended();
    },
  });
}
