import type { StatusView } from '../../../../preload/src/contract.js';

/**
 * The tray icon's tooltip and menu, from the host's status. Items carry an action id instead
 * of a click function, so the template is plain data; the adapter maps ids to handlers.
 */
export type TrayAction = 'open' | 'open-consent' | 'toggle-login-item' | 'quit';

export interface TrayMenuItem {
  readonly label?: string;
  readonly type?: 'normal' | 'separator' | 'checkbox';
  readonly enabled?: boolean;
  readonly checked?: boolean;
  readonly action?: TrayAction;
}

export interface TrayState {
  /** null until the host has started. */
  readonly status: StatusView | null;
  readonly pendingConsents: number;
  readonly games: number;
  readonly openAtLogin: boolean;
  /** The OS supports start-at-login (Linux does not through Electron). */
  readonly loginItemSupported: boolean;
}

const GATEWAY_LABEL: Readonly<Record<StatusView['gateway']['status'], string>> = {
  ready: 'Connected',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  disconnected: 'Disconnected',
  banned: 'Account banned',
};

function clip(text: string, max = 48): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export function connectionLabel(status: StatusView | null): string {
  if (status === null) return 'Starting…';
  return GATEWAY_LABEL[status.gateway.status];
}

export function trayTooltip(state: TrayState): string {
  const user = state.status?.account?.user;
  const who = user === undefined ? 'not signed in' : clip(user.global_name ?? user.username, 32);
  return `Companion — ${connectionLabel(state.status)}, ${who}`;
}

export function trayMenuTemplate(state: TrayState): TrayMenuItem[] {
  const user = state.status?.account?.user;
  const items: TrayMenuItem[] = [
    { label: `Status: ${connectionLabel(state.status)}`, enabled: false },
    { label: user === undefined ? 'Not signed in' : `Signed in as ${clip(user.username)}`, enabled: false },
    { label: state.games === 1 ? '1 game connected' : `${state.games} games connected`, enabled: false },
    { type: 'separator' },
    { label: 'Open Companion', action: 'open' },
  ];
  if (state.pendingConsents > 0) {
    items.push({ label: `Authorization requests (${state.pendingConsents})…`, action: 'open-consent' });
  }
  if (state.loginItemSupported) {
    items.push({ label: 'Start at login', type: 'checkbox', checked: state.openAtLogin, action: 'toggle-login-item' });
  }
  items.push({ type: 'separator' }, { label: 'Quit Companion', action: 'quit' });
  return items;
}
