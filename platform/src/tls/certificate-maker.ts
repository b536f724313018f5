import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as Asn1js from 'asn1js';
import type * as Pkijs from 'pkijs';

/**
 * Makes the loopback TLS certificates of the emulator with `pkijs` over Node's WebCrypto (no
 * `openssl` needed on the player's machine): a local certificate authority, and a server
 * certificate it signs for `localhost`, `127.0.0.1` and `::1`. ECDSA P-256 with SHA-256
 * **(ours)**: every current TLS stack takes it, and a key is made in milliseconds.
 *
 * Loaded with `require`, and only when TLS is asked for: an emulator without TLS never loads them
 * (the same reason as `ws`, common/src/node/ws-module.ts).
 */
const require = createRequire(import.meta.url);
const pkijs = require('pkijs') as typeof Pkijs;
const asn1js = require('asn1js') as typeof Asn1js;

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
type CryptoKey = webcrypto.CryptoKey;
const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as EngineCrypto });

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  nameConstraints: '2.5.29.30',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

/** The names the server certificate is good for: every name the emulator's Host check takes. */
export const SERVER_DNS_NAMES: readonly string[] = ['localhost'];
export const SERVER_IP_ADDRESSES: readonly string[] = ['127.0.0.1', '::1'];

/** A certificate and its private key, both PEM. */
export interface IssuedCertificate {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${base64.endsWith('\n') ? base64 : `${base64}\n`}-----END ${label}-----\n`;
}

function derOf(pemText: string): ArrayBuffer {
  const body = pemText.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  const bytes = Buffer.from(body, 'base64');
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

function name(commonName: string): Pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({ type: OID.organization, value: new asn1js.Utf8String({ value: 'Companion (local test platform)' }) }),
      new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: commonName }) }),
    ],
  });
}

function extension(extnID: string, critical: boolean, value: { toSchema(): { toBER(sizeOnly?: boolean): ArrayBuffer } } | Asn1js.BaseBlock): Pkijs.Extension {
  const schema = 'toSchema' in value ? value.toSchema() : value;
  return new pkijs.Extension({ extnID, critical, extnValue: schema.toBER(false) });
}

/** A KeyUsage bit string of one byte (bits counted from the most significant). */
function keyUsage(bits: number, unusedBits: number): Asn1js.BitString {
  return new asn1js.BitString({ valueHex: new Uint8Array([bits]).buffer, unusedBits });
}

/** RFC 5280 4.2.1.2 method 1: the SHA-1 of the subject public key's bits. */
function keyIdentifier(certificate: Pkijs.Certificate): ArrayBuffer {
  const bits = certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
  const digest = createHash('sha1').update(bits).digest();
  return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength);
}

/** The bytes of a dotted IPv4 address, or of `::1` (the only IPv6 address the certificates name). */
function ipBytes(address: string): ArrayBuffer {
  if (address === '::1') return new Uint8Array([...new Array<number>(15).fill(0), 1]).buffer;
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255)) throw new RangeError(`not an address the certificates name: ${address}`);
  return new Uint8Array(parts).buffer;
}

/**
 * **(ours)** The authority may only vouch for the loopback names: a leaked authority key could
 * not impersonate any other site to a machine that trusts it (RFC 5280 4.2.1.10).
 */
function loopbackOnly(): Pkijs.NameConstraints {
  const subtree = (base: Pkijs.GeneralName): Pkijs.GeneralSubtree => new pkijs.GeneralSubtree({ base });
  const masked = (ip: string): ArrayBuffer => {
    const address = new Uint8Array(ipBytes(ip));
    return new Uint8Array([...address, ...new Array<number>(address.length).fill(0xff)]).buffer;
  };
  return new pkijs.NameConstraints({
    permittedSubtrees: [
      ...SERVER_DNS_NAMES.map((dns) => subtree(new pkijs.GeneralName({ type: 2, value: dns }))),
      ...SERVER_IP_ADDRESSES.map((ip) => subtree(new pkijs.GeneralName({ type: 7, value: new asn1js.OctetString({ valueHex: masked(ip) }) }))),
    ],
  });
}

function subjectAltName(): Pkijs.AltName {
  return new pkijs.AltName({
    altNames: [
      ...SERVER_DNS_NAMES.map((dns) => new pkijs.GeneralName({ type: 2, value: dns })),
      ...SERVER_IP_ADDRESSES.map((ip) => new pkijs.GeneralName({ type: 7, value: new asn1js.OctetString({ valueHex: ipBytes(ip) }) })),
    ],
  });
}

/**
 * A positive serial of 16 bytes, 126 of its bits random: unique enough that two runs never issue
 * the same one. The first byte is 01xxxxxx: its top bit clear keeps the number positive, and its
 * second bit set keeps the DER minimal (a leading zero byte followed by a byte below 0x80 is
 * padding, which OpenSSL refuses to parse: "illegal padding", once in 256 serials before).
 */
export function serialBytes(random: Buffer = randomBytes(16)): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(random.subarray(0, 16));
  bytes[0] = ((bytes[0] ?? 0) & 0x3f) | 0x40;
  return bytes;
}

function serialNumber(): Asn1js.Integer {
  return new asn1js.Integer({ valueHex: serialBytes() });
}

async function newKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

async function skeleton(subject: Pkijs.RelativeDistinguishedNames, issuer: Pkijs.RelativeDistinguishedNames, validity: Validity, publicKey: CryptoKey): Promise<Pkijs.Certificate> {
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = serialNumber();
  certificate.subject = subject;
  certificate.issuer = issuer;
  certificate.notBefore.value = validity.notBefore;
  certificate.notAfter.value = validity.notAfter;
  await certificate.subjectPublicKeyInfo.importKey(publicKey, engine);
  return certificate;
}

async function finish(certificate: Pkijs.Certificate, signer: CryptoKey, privateKey: CryptoKey): Promise<IssuedCertificate> {
  await certificate.sign(signer, 'SHA-256', engine);
  const key = await webcrypto.subtle.exportKey('pkcs8', privateKey);
  return { certPem: pem('CERTIFICATE', certificate.toSchema(true).toBER(false)), keyPem: pem('PRIVATE KEY', key) };
}

/** A self-signed certificate authority that may sign server certificates only (path length 0). */
export async function makeAuthority(commonName: string, validity: Validity): Promise<IssuedCertificate> {
  const keys = await newKeyPair();
  const certificate = await skeleton(name(commonName), name(commonName), validity, keys.publicKey);
  const ski = keyIdentifier(certificate);
  certificate.extensions = [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: true, pathLenConstraint: 0 })),
    extension(OID.keyUsage, true, keyUsage(0x06, 1)), // keyCertSign, cRLSign
    extension(OID.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: ski })),
    extension(OID.nameConstraints, true, loopbackOnly()),
  ];
  return finish(certificate, keys.privateKey, keys.privateKey);
}

/** A server certificate for the loopback names, signed by the authority (`authority` as made above). */
export async function makeServerCertificate(authority: IssuedCertificate, validity: Validity): Promise<IssuedCertificate> {
  const caCertificate = pkijs.Certificate.fromBER(derOf(authority.certPem));
  const caKey = await webcrypto.subtle.importKey('pkcs8', derOf(authority.keyPem), KEY_ALGORITHM, false, ['sign']);
  const keys = await newKeyPair();
  const certificate = await skeleton(name('localhost'), caCertificate.subject, validity, keys.publicKey);
  certificate.extensions = [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false })),
    extension(OID.keyUsage, true, keyUsage(0x80, 7)), // digitalSignature
    extension(OID.extKeyUsage, false, new pkijs.ExtKeyUsage({ keyPurposes: [OID.serverAuth] })),
    extension(OID.subjectAltName, false, subjectAltName()),
    extension(OID.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: keyIdentifier(certificate) })),
    extension(OID.authorityKeyIdentifier, false, new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: keyIdentifier(caCertificate) }) })),
  ];
  return finish(certificate, caKey, keys.privateKey);
}
