import type { RpcServer } from '../../../../rpc/src/index.js';
import type { ControlLogger } from '../control/control-server.js';
import type { HostEvents } from '../record/host-events.js';
import type { FrameLinter, FrameLog } from './frame-log.js';
import type { UiImages } from './ui-images.js';
import type { WebUiSettings } from './bridge-backend.js';
import type { WebUiBackend } from './web-ui-backend.js';

/**
 * The headless UI as the host sees it: a front end (main/src/shells/web) that a shell hands to
 * the host's composition, which starts it over the host's parts and closes it on shutdown.
 */
export interface WebUi {
  /** `http://127.0.0.1:PORT/?token=...`: what the user opens (once: the token becomes a cookie). */
  readonly url: string;
  /** `http://127.0.0.1:PORT/`, without the token. */
  readonly baseUrl: string;
  readonly port: number;
  readonly token: string;
  /** The session cookie's name, `companion_ui_<port>`. */
  readonly cookieName: string;
  /** A URL whose token opens one session, once, within a few minutes (`companion ui`). */
  oneTimeUrl(): string;
  /** Every connection's conversation the host keeps (the inspector's rows), for the control API. */
  readonly frames?: Pick<FrameLog, 'since' | 'lastSeq'>;
  close(): Promise<void>;
}

/** What the host gives the web UI to serve. */
export interface WebUiParts {
  readonly backend: WebUiBackend;
  /** Where frames come from (the inspector); listened to from the UI's start, whether or not a page is open. */
  readonly server: Pick<RpcServer, 'on' | 'off'>;
  /** The built renderer; default `<repo>/out/renderer`. */
  readonly rendererDir?: string;
  readonly logger?: ControlLogger;
  readonly settings: WebUiSettings;
  /** Lints for the inspector's SET_ACTIVITY frames. */
  readonly lint?: FrameLinter;
  /** The host's side of the conversation, listed among the inspector's frames. */
  readonly hostEvents?: Pick<HostEvents, 'subscribe'>;
  /** The pictures the UI shows (app icons, art assets, avatars), from the platform's CDN. */
  readonly images?: UiImages;
}

export type WebUiStarter = (parts: WebUiParts) => Promise<WebUi>;
