import { createHash } from 'node:crypto';
import type { ReadyIdentity, RpcUser } from '../../rpc/src/index.js';

/**
 * The account READY announces until the platform emulator provides real accounts: a local
 * user named after `--user` (default: the OS user), with a stable id derived from the name.
 */
export function localUser(username: string): RpcUser {
  const digest = createHash('sha256').update(`companion-local-user:${username}`).digest();
  const id = (100000000000000000n + (digest.readBigUInt64BE(0) % 900000000000000000n)).toString();
  return {
    id,
    username,
    discriminator: '0',
    global_name: username,
    avatar: null,
    avatar_decoration_data: null,
    bot: false,
    flags: 0,
    premium_type: 0,
  };
}

/** READY's config: the real platform's values until the emulator takes their place. */
export const DEFAULT_READY_CONFIG: ReadyIdentity['config'] = {
  cdn_host: 'cdn.discordapp.com',
  api_endpoint: '//discord.com/api',
  environment: 'production',
};

/** Display name for an application until the platform's application registry exists. */
export function placeholderApplicationName(clientId: string): string {
  return `Application ${clientId}`;
}
