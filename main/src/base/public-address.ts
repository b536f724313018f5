import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a fetch on a game's behalf never goes to: this machine, private networks and
 * what is not a unicast host on the internet. Checked after DNS resolution (a public name can
 * resolve to 127.0.0.1), and the connection goes to the address checked (no second lookup
 * to rebind). IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are checked as the IPv4 they carry.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is a public unicast address; false for anything else. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a lookup was refused: the error's code. */
export const ADDRESS_REFUSED = 'EADDRREFUSED';

function refusal(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${hostname} resolves to an address that is not public`), { code: ADDRESS_REFUSED });
}

/**
 * A `lookup` for node:http(s) that resolves with the system's resolver and refuses the name
 * when any address it gives is not allowed (`allowed`: by default isPublicAddress).
 */
export function allowedAddressLookup(allowed: (address: string) => boolean = isPublicAddress): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family ?? 0, hints: options.hints ?? 0, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) return callback(error, '', 0);
      if (addresses.length === 0 || addresses.some((entry) => !allowed(entry.address))) return callback(refusal(hostname), '', 0);
      if (options.all === true) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

/** A URL's host as an IP literal (without IPv6's brackets), or null for a name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? null : host;
}
