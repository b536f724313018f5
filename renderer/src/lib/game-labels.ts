/** How a game's connection reads in the developer facts (the Games card's Details, the inspector). */

const LIBRARY_LABELS: Readonly<Record<string, string>> = {
  pypresence: 'pypresence (Python)',
  'discord-rpc-c': 'official C library (discord-rpc)',
  '@xhayper/discord-rpc': '@xhayper/discord-rpc (Node)',
  'discord-rpc': 'discord-rpc (Node)',
  'uuid-client': 'a Node client (UUID nonces)',
  unknown: 'not known yet',
};

export function libraryLabel(library: string): string {
  return LIBRARY_LABELS[library] ?? library;
}

export function transportLabel(transport: string): string {
  if (transport === 'ipc') return 'IPC socket';
  if (transport === 'websocket') return 'WebSocket';
  return transport;
}
