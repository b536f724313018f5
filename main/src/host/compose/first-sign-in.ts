import type { Credentials, PlatformSession } from '../session/platform-session.js';

export type SignInOutcome =
  | { readonly kind: 'signed-in'; readonly username: string }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'retrying'; readonly message: string }
  | { readonly kind: 'none' };

/**
 * The host's first sign-in, before games can connect, so the first READY carries the account.
 * If the platform cannot be reached, games get the cached account meanwhile (or "User logged
 * out" when none was ever known) and the session keeps trying in the background.
 */
export async function firstSignIn(session: PlatformSession, credentials: Credentials | undefined): Promise<SignInOutcome> {
  if (credentials === undefined) return { kind: 'none' };
  return session.signIn(credentials, { retry: false }).then(
    (user): SignInOutcome => ({ kind: 'signed-in', username: user.username }),
    (error: unknown): SignInOutcome => {
      const message = error instanceof Error ? error.message : String(error);
      if ((error as { status?: unknown }).status !== 0) return { kind: 'failed', message };
      session.signIn(credentials).catch(() => undefined);
      return { kind: 'retrying', message };
    },
  );
}
