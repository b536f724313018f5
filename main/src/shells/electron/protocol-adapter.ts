import { serveAppRequest, type AppImages } from './app-protocol.js';
import type { ProtocolLike } from './electron-types.js';
import { APP_SCHEME } from './url-policy.js';

/** Before `app.whenReady()`: `app:` is a standard, secure scheme (so it has an origin, CSP and fetch). */
export function registerAppScheme(protocol: ProtocolLike): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** After ready: serve the built renderer (GET/HEAD only) from `rendererDir`, and the host's `cdn/` pictures. */
export function handleAppProtocol(protocol: ProtocolLike, rendererDir: string, images: AppImages = () => null): void {
  protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 });
    const answer = await serveAppRequest(rendererDir, request.url, undefined, images);
    return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, headers: answer.headers });
  });
}
