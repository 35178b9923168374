// Spec section 1: a signed-in user whose profile is neither complete nor pending verification is sent
// to /edit/{userId}?action=complete. Admins are exempt (docs/decisions/0007): their account exists to
// clear queues, not to advertise. The server answers sign-in with this path; the shell applies it.
export interface CompletionState {
  user_id: number;
  role: 'advertiser' | 'admin';
  complete: boolean;
  verify: string;
}

export function needsCompletion(user: CompletionState | null | undefined): boolean {
  return !!user && user.role !== 'admin' && !user.complete && user.verify !== 'pending';
}

/** Where a user goes after signing in: the completion screen when needed, else home. */
export function completionPath(user: CompletionState): string {
  return needsCompletion(user) ? `/edit/${user.user_id}?action=complete` : '/';
}
