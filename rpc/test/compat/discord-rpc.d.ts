/**
 * Minimal typings for npm discord-rpc 4.0.1 (it ships none): only what the compat tests use.
 * Source: node_modules/discord-rpc/src/client.js and src/transports/ipc.js.
 */
declare module 'discord-rpc' {
  import type { EventEmitter } from 'node:events';
  import type { Socket } from 'node:net';

  namespace DiscordRPC {
    interface ClientOptions {
      transport: 'ipc' | 'websocket';
    }

    interface Button {
      label: string;
      url: string;
    }

    /** The camelCase presence setActivity() turns into the wire activity. */
    interface Presence {
      state?: string;
      details?: string;
      startTimestamp?: number | Date;
      endTimestamp?: number | Date;
      largeImageKey?: string;
      largeImageText?: string;
      smallImageKey?: string;
      smallImageText?: string;
      partyId?: string;
      partySize?: number;
      partyMax?: number;
      matchSecret?: string;
      joinSecret?: string;
      spectateSecret?: string;
      buttons?: Button[];
      instance?: boolean;
    }

    /** An ERROR reply becomes `new Error(data.message)` with `code` and `data` added. */
    interface RpcRequestError extends Error {
      code: number;
      data: { code: number; message: string };
    }

    interface IPCTransport extends EventEmitter {
      socket: Socket | null;
    }

    class Client extends EventEmitter {
      constructor(options: ClientOptions);
      clientId: string | null;
      /** READY's user object, as sent. */
      user: Record<string, unknown> | null;
      transport: IPCTransport;
      connect(clientId: string): Promise<Client>;
      login(options: { clientId: string; scopes?: string[]; clientSecret?: string; accessToken?: string; redirectUri?: string }): Promise<Client>;
      request(cmd: string, args?: unknown, evt?: string): Promise<unknown>;
      setActivity(presence?: Presence, pid?: number): Promise<unknown>;
      clearActivity(pid?: number): Promise<unknown>;
      /** GET_VOICE_SETTINGS, renamed to camelCase (`input.device`, `input.availableDevices`, `mode.autoThreshold`, ...). */
      getVoiceSettings(): Promise<Record<string, unknown>>;
      /** SET_VOICE_SETTINGS from camelCase; keys not given are sent undefined (absent on the wire). */
      setVoiceSettings(settings: Record<string, unknown>): Promise<unknown>;
      /** SELECT_VOICE_CHANNEL `{channel_id, timeout, force}` (no `navigate`); resolves with the channel. */
      selectVoiceChannel(id: string | null, options?: { timeout?: number; force?: boolean }): Promise<Record<string, unknown>>;
      /** 4.0.1: (event, args); events then arrive as `client.emit(evt, data)`. */
      subscribe(event: string, args?: Record<string, unknown>): Promise<{ unsubscribe(): Promise<unknown> }>;
      destroy(): Promise<void>;
    }

    function register(id: string): boolean;
  }

  export = DiscordRPC;
}
