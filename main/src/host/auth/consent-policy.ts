/**
 * How the broker answers when it would ask the player (`--consent`): `prompt` shows the
 * prompt to the front ends; `approve` and `deny` decide at once, for unattended runs. A request
 * that a remembered grant covers is approved without a prompt under every policy.
 */
export type ConsentPolicy = 'prompt' | 'approve' | 'deny';
export const CONSENT_POLICIES: readonly ConsentPolicy[] = ['prompt', 'approve', 'deny'];

/** The `--consent` value as a policy; undefined when it is not one of CONSENT_POLICIES. */
export function parseConsentPolicy(value: string): ConsentPolicy | undefined {
  return (CONSENT_POLICIES as readonly string[]).includes(value) ? (value as ConsentPolicy) : undefined;
}
