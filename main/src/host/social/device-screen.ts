import { parseCloseAuthorizeDeviceScreenArgs, parseOpenAuthorizeDeviceScreenArgs, type RpcServer } from '../../../../rpc/src/index.js';
import type { OpenInCompanion } from './open-in-companion.js';

/**
 * The RPC commands of ours for the Social SDK's Open/CloseAuthorizeDeviceScreen: a game asks
 * Companion to show (or hide) the screen where the player enters a device flow's user code.
 * Published as `open-view` requests (`authorize-device` with the code, `close-authorize-device`),
 * for the asking game's connection; each answers null.
 */
export function registerDeviceScreen(server: Pick<RpcServer, 'setCommandHandler'>, opens: OpenInCompanion): void {
  server.setCommandHandler('OPEN_AUTHORIZE_DEVICE_SCREEN', ({ connection, request }) => {
    const { client_id, user_code } = parseOpenAuthorizeDeviceScreenArgs(request.args);
    opens.emit('open', { view: 'authorize-device', application_id: client_id, connection_id: connection.id, user_code });
    return null;
  });
  server.setCommandHandler('CLOSE_AUTHORIZE_DEVICE_SCREEN', ({ connection, request }) => {
    parseCloseAuthorizeDeviceScreenArgs(request.args);
    opens.emit('open', { view: 'close-authorize-device', application_id: connection.clientId ?? '', connection_id: connection.id });
    return null;
  });
}
