import type { RpcApplication } from '../../../../platform/src/wire/index.js';
import { PlatformApiError, type PlatformApi } from '../gateway/platform-api.js';
import { REFUSED, type ApplicationLookup } from './application-directory.js';

/**
 * The handshake's application look-up on the platform: signed in, it asks with the user's token
 * through the route that registers an unknown id on first use (the emulator bounds that per
 * user); signed out, or on a platform without that route, it only looks up (a look-up never
 * registers). A registration refused for now (429) is REFUSED.
 */
export class PlatformApplicationLookup implements ApplicationLookup {
  constructor(
    private readonly publicApi: Pick<PlatformApi, 'application'>,
    private readonly authedApi: () => Pick<PlatformApi, 'registerApplication'> | null,
  ) {}

  async application(id: string): Promise<RpcApplication | null | typeof REFUSED> {
    const api = this.authedApi();
    if (api === null) return this.publicApi.application(id);
    try {
      return await api.registerApplication(id);
    } catch (error) {
      if (!(error instanceof PlatformApiError)) throw error;
      if (error.status === 429) return REFUSED;
      // No such route (another platform), or the token is no longer accepted: look up only.
      if (error.status === 405 || error.status === 401) return this.publicApi.application(id);
      throw error;
    }
  }
}
