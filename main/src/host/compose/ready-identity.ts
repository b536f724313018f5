import type { ReadyIdentity } from '../../../../rpc/src/index.js';

/**
 * READY's config. `api_endpoint` points at the platform the host uses (the embedded emulator
 * by default), written protocol-relative as the real client does (`//discord.com/api`).
 * `cdn_host` and `environment` keep the real client's values: the emulator serves no CDN, and
 * no library we know reads `environment`.
 */
export function readyConfigFor(platformUrl: string): ReadyIdentity['config'] {
  const url = new URL(platformUrl);
  return { cdn_host: 'cdn.discordapp.com', api_endpoint: `//${url.host}/api`, environment: 'production' };
}
