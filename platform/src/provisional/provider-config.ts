import { isIP } from 'node:net';
import { EXTERNAL_AUTH_TYPES, type ExternalAuthProvider } from '../state/model.js';

/** What is wrong with a provider configuration, or null. */
export type ProviderProblem = { readonly field: string; readonly message: string } | null;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The public docs' rules for an OIDC issuer: https, a host name (not an IP address), no
 * query and no fragment. The emulator also takes an `http://` loopback issuer (127.0.0.1,
 * [::1], localhost), so a test's own issuer can run beside it **(ours)**.
 */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'The issuer must be an absolute URL';
  }
  if (url.search !== '' || url.hash !== '' || issuer.includes('?') || issuer.includes('#')) return 'The issuer must have no query and no fragment';
  if (LOOPBACK.has(url.hostname)) return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'The issuer must be https';
  if (url.protocol !== 'https:') return 'The issuer must be https';
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return 'The issuer must name a host, not an IP address';
  return null;
}

/** Checks an app's provider list (admin API): known types, once each, OIDC with a good issuer and an audience. */
export function providersProblem(providers: readonly ExternalAuthProvider[]): ProviderProblem {
  const seen = new Set<string>();
  for (const [index, provider] of providers.entries()) {
    const field = `external_auth.${index}`;
    const type: string = provider.type;
    if (!(EXTERNAL_AUTH_TYPES as readonly string[]).includes(type) || type === 'DISCORD_BOT_ISSUED_ACCESS_TOKEN') {
      return { field: `${field}.type`, message: `Unknown provider type "${provider.type}" (the bot token endpoint needs no provider)` };
    }
    if (seen.has(provider.type)) return { field: `${field}.type`, message: `The provider type ${provider.type} is configured twice` };
    seen.add(provider.type);
    if (provider.type !== 'OIDC') continue;
    const problem = issuerProblem(provider.issuer);
    if (problem !== null) return { field: `${field}.issuer`, message: problem };
    if (provider.audience.length === 0) return { field: `${field}.audience`, message: 'The audience (the client id your issuer puts in "aud") is required' };
  }
  return null;
}
