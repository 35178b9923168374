// The account screen's answer (src/shared/schemas/account.ts) from the account and its changes still
// waiting to be proven: rows in, answers out.
import type { AccountResponse } from '#shared/schemas/account.ts';
import type { pendingMobile } from '../auth/contact-verification.service';
import type { Account } from '../auth/identity.service';

/** GET /api/account/{id}. `pendingEmail`: the new address whose link is not yet followed. */
export function presentAccount(
  account: Account,
  pendingEmail: string | null,
  pendingPin: Awaited<ReturnType<typeof pendingMobile>>,
): AccountResponse {
  return {
    data: {
      user_id: account.id,
      email: account.email,
      email_verified: !!account.emailVerifiedAt,
      pending_email: pendingEmail,
      mobile: account.mobile,
      mobile_verified: !!account.mobileVerifiedAt,
      // The /verify/pin/{hash} path exists only in the answer that sent the PIN (the hash is not
      // stored); asking again sends a new PIN with a new path.
      pending_mobile: pendingPin?.mobile ?? null,
      username: account.username,
      role: account.role,
      created_at: account.createdAt.toISOString(),
    },
  };
}
