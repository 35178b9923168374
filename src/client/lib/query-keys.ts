// Query keys that more than one feature invalidates. Each lives here, below the features, so that a
// feature refreshing another's data does not import that feature (features/auth and features/account
// imported each other for two keys; issue 22 item 3). Keys one feature alone uses stay in its api.ts.

/** The account screen's data (features/account): a switch of account makes all of it stale. */
export const accountKeys = {
  all: ['account'] as const,
  account: (id: number) => ['account', id] as const,
};

/** The linked accounts (features/auth): a new password on the account screen ends every link. */
export const linkedAccountsKey = ['auth', 'links'] as const;
