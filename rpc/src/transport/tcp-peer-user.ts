import { readFile } from 'node:fs/promises';
import os from 'node:os';

/** One end of a TCP connection. Addresses are canonical (see canonicalAddress). */
export interface TcpEndpoint {
  readonly address: string;
  readonly port: number;
}

/** One row of `/proc/net/tcp` or `/proc/net/tcp6`. */
export interface TcpSocketRow {
  readonly local: TcpEndpoint;
  readonly remote: TcpEndpoint;
  /** The kernel's TCP state number (1 = ESTABLISHED, 10 = LISTEN). */
  readonly state: number;
  /** The user id that owns the socket. */
  readonly uid: number;
}

export const TCP_ESTABLISHED = 1;

/**
 * The rows of a `/proc/net/tcp` (family 4) or `/proc/net/tcp6` (family 6) text. Addresses are
 * printed as 32-bit words in the kernel's byte order (`endianness`, this machine's by default),
 * ports as big hex numbers. Lines that do not parse are skipped.
 */
export function parseProcNetTcp(text: string, family: 4 | 6, endianness: 'LE' | 'BE' = os.endianness()): TcpSocketRow[] {
  const rows: TcpSocketRow[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
    if (fields.length < 10 || !/^\d+:$/.test(fields[0] ?? '')) continue;
    const local = parseEndpoint(fields[1] ?? '', family, endianness);
    const remote = parseEndpoint(fields[2] ?? '', family, endianness);
    const state = parseHex(fields[3] ?? '', 2);
    const uid = /^\d+$/.test(fields[7] ?? '') ? Number(fields[7]) : undefined;
    if (local === undefined || remote === undefined || state === undefined || uid === undefined) continue;
    rows.push({ local, remote, state, uid });
  }
  return rows;
}

/**
 * The owner of the peer's end of an established connection: the row whose local end is the
 * peer and whose remote end is us (the row of our own accepted socket is the other way round
 * and belongs to us).
 */
export function findPeerUid(rows: readonly TcpSocketRow[], peer: TcpEndpoint, ours: TcpEndpoint): number | undefined {
  const peerAddress = canonicalAddress(peer.address);
  const ourAddress = canonicalAddress(ours.address);
  for (const row of rows) {
    if (row.state !== TCP_ESTABLISHED) continue;
    if (row.local.port !== peer.port || row.remote.port !== ours.port) continue;
    if (row.local.address === peerAddress && row.remote.address === ourAddress) return row.uid;
  }
  return undefined;
}

export type PeerUidLookup =
  | { readonly kind: 'found'; readonly uid: number }
  /** The tables were read, and no established connection matches (the peer already left). */
  | { readonly kind: 'not-found' }
  /** The OS has no such table (not Linux, or /proc is not mounted or readable). */
  | { readonly kind: 'unsupported'; readonly reason: string };

export interface PeerUidLookupOptions {
  readonly platform?: NodeJS.Platform;
  /** Default `/proc`; tests point it at fixture files. */
  readonly procRoot?: string;
}

/**
 * Looks up which OS user owns the other end of a loopback TCP connection, from the kernel's
 * socket tables (Linux: `/proc/net/tcp`, then `/proc/net/tcp6` where dual-stack clients that
 * reached an IPv4 address appear with `::ffff:` addresses). Other systems have no such table
 * readable without privileges: `unsupported`.
 */
export async function lookupPeerUid(peer: TcpEndpoint, ours: TcpEndpoint, options: PeerUidLookupOptions = {}): Promise<PeerUidLookup> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') return { kind: 'unsupported', reason: `no kernel socket table on ${platform}` };
  const root = options.procRoot ?? '/proc';
  let readAny = false;
  for (const [file, family] of [['tcp', 4], ['tcp6', 6]] as const) {
    let text: string;
    try {
      text = await readFile(`${root}/net/${file}`, 'utf8');
    } catch {
      continue; // tcp6 is absent without IPv6
    }
    readAny = true;
    const uid = findPeerUid(parseProcNetTcp(text, family), peer, ours);
    if (uid !== undefined) return { kind: 'found', uid };
  }
  return readAny ? { kind: 'not-found' } : { kind: 'unsupported', reason: `${root}/net/tcp cannot be read` };
}

/**
 * One spelling per address: IPv4 dotted; IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as IPv4;
 * other IPv6 as eight lower-case groups without zero compression.
 */
export function canonicalAddress(address: string): string {
  const text = address.toLowerCase();
  if (!text.includes(':')) return text;
  const groups = expandIpv6(text);
  if (groups === undefined) return text;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const high = groups[6] ?? 0;
    const low = groups[7] ?? 0;
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return groups.map((group) => group.toString(16)).join(':');
}

function expandIpv6(text: string): number[] | undefined {
  // A trailing dotted quad (`::ffff:127.0.0.1`) is the last two groups.
  const body = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_match, a: string, b: string, c: string, d: string) => {
    const [w, x, y, z] = [a, b, c, d].map(Number) as [number, number, number, number];
    return `${((w << 8) | x).toString(16)}:${((y << 8) | z).toString(16)}`;
  });
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16) : NaN)));
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

function parseEndpoint(field: string, family: 4 | 6, endianness: 'LE' | 'BE'): TcpEndpoint | undefined {
  const [hexAddress, hexPort] = field.split(':');
  const port = parseHex(hexPort ?? '', 4);
  const width = family === 4 ? 8 : 32;
  if (hexAddress === undefined || hexAddress.length !== width || !/^[0-9A-Fa-f]+$/.test(hexAddress) || port === undefined) return undefined;
  const bytes: number[] = [];
  for (let word = 0; word < width; word += 8) {
    const wordBytes = [0, 2, 4, 6].map((offset) => parseInt(hexAddress.slice(word + offset, word + offset + 2), 16));
    // The kernel prints each 32-bit word as a host-order integer.
    bytes.push(...(endianness === 'LE' ? wordBytes.reverse() : wordBytes));
  }
  if (family === 4) return { address: bytes.join('.'), port };
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2) groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16));
  return { address: canonicalAddress(groups.join(':')), port };
}

function parseHex(text: string, maxDigits: number): number | undefined {
  if (text.length === 0 || text.length > maxDigits || !/^[0-9A-Fa-f]+$/.test(text)) return undefined;
  return parseInt(text, 16);
}
