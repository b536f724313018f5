import { randomUUID } from 'node:crypto';
import {
  encodeFrame,
  eventDispatch,
  Opcode,
  parseCloseAuthorizeDeviceScreenArgs,
  parseOpenAuthorizeDeviceScreenArgs,
  type RpcConnection,
  type RpcServer,
} from '../../../../rpc/src/index.js';
import type { OpenInCompanion } from './open-in-companion.js';

/** The RPC event (ours) the Social SDK's SetAuthorizeDeviceScreenClosedCallback listens for. */
export const AUTHORIZE_DEVICE_SCREEN_CLOSED = 'AUTHORIZE_DEVICE_SCREEN_CLOSED';

/** The screen open now: which opening it is, and the game that asked for it. */
interface OpenScreen {
  readonly id: string;
  readonly connectionId: string;
  /** The asking connection's application (another connection of it may close the screen). */
  readonly clientId: string | null;
  /** What the game asked to show: the code's application and the code. */
  readonly applicationId: string;
  readonly userCode: string;
}

/**
 * Companion's "Link a device" screen as games ask for it, for the Social SDK's
 * Open/CloseAuthorizeDeviceScreen and SetAuthorizeDeviceScreenClosedCallback (RPC commands and
 * event of ours):
 * - OPEN_AUTHORIZE_DEVICE_SCREEN `{client_id, user_code}` opens it (an `open-view` request
 *   `authorize-device` with a new `screen_id`); one screen at a time: opening it for another
 *   game closes the first game's (which is told);
 * - CLOSE_AUTHORIZE_DEVICE_SCREEN `{}` closes it, when it is the asking game's (its connection,
 *   or another connection of its application); else nothing happens;
 * - the window closes it (`closedByWindow`: the player closed it, approved or denied).
 * Whenever the screen a game opened closes, that game's connection (and no other) gets the
 * event AUTHORIZE_DEVICE_SCREEN_CLOSED (data null), subscribed or not: the Social SDK's
 * callback needs no subscription. Each command answers null.
 */
export class DeviceScreens {
  private current: OpenScreen | null = null;

  constructor(
    private readonly server: Pick<RpcServer, 'setCommandHandler' | 'connection'>,
    private readonly opens: OpenInCompanion,
  ) {
    server.setCommandHandler('OPEN_AUTHORIZE_DEVICE_SCREEN', ({ connection, request }) => {
      const { client_id, user_code } = parseOpenAuthorizeDeviceScreenArgs(request.args);
      this.show(connection, client_id, user_code);
      return null;
    });
    server.setCommandHandler('CLOSE_AUTHORIZE_DEVICE_SCREEN', ({ connection, request }) => {
      parseCloseAuthorizeDeviceScreenArgs(request.args);
      const current = this.current;
      if (current !== null && (current.connectionId === connection.id || (current.clientId !== null && current.clientId === connection.clientId))) this.close(current);
      return null;
    });
  }

  /** The screen open now, for a window that opens later; null when none is. */
  open(): { readonly screenId: string; readonly applicationId: string; readonly userCode: string } | null {
    const current = this.current;
    return current === null ? null : { screenId: current.id, applicationId: current.applicationId, userCode: current.userCode };
  }

  /** The window closed the screen of that opening (a screen already closed is nothing to do). */
  closedByWindow(screenId: string): void {
    if (this.current?.id === screenId) this.close(this.current);
  }

  private show(connection: RpcConnection, applicationId: string, userCode: string): void {
    const previous = this.current;
    const screen: OpenScreen = { id: randomUUID(), connectionId: connection.id, clientId: connection.clientId ?? null, applicationId, userCode };
    this.current = screen;
    // The first game's screen gave way to another game's: it is closed for that game.
    if (previous !== null && previous.connectionId !== connection.id) this.tell(previous);
    this.opens.emit('open', { view: 'authorize-device', application_id: applicationId, connection_id: connection.id, screen_id: screen.id, user_code: userCode });
  }

  private close(screen: OpenScreen): void {
    this.current = null;
    this.tell(screen);
    this.opens.emit('open', { view: 'close-authorize-device', application_id: screen.clientId ?? '', connection_id: screen.connectionId, screen_id: screen.id });
  }

  /** AUTHORIZE_DEVICE_SCREEN_CLOSED to the game that opened the screen, if it is still connected. */
  private tell(screen: OpenScreen): void {
    const connection = this.server.connection(screen.connectionId);
    if (connection === undefined) return;
    const payload = eventDispatch(AUTHORIZE_DEVICE_SCREEN_CLOSED, null);
    connection.sendEvent(encodeFrame(Opcode.Frame, payload), payload);
  }
}
