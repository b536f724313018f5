import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../../common/src/node/atomic-file.js';
import type { IssuedCertificate, Validity } from './certificate-maker.js';
import { AUTHORITY_NAME } from './trust-instructions.js';

/** The folder under the emulator's data dir that holds its TLS files. */
export const TLS_DIR_NAME = 'tls';

const DAY_MS = 24 * 60 * 60 * 1000;
/** **(ours)** The authority lasts ten years: trusting it is a manual step, done once. */
const AUTHORITY_LIFETIME_MS = 3650 * DAY_MS;
/** **(ours)** A server certificate lasts a year (under the 398 days browsers and Apple accept). */
const SERVER_LIFETIME_MS = 365 * DAY_MS;
/** **(ours)** Renewed when less than a day is left, so a run never outlives its certificate. */
const RENEW_MARGIN_MS = DAY_MS;
/** **(ours)** Valid from an hour before it was made, for a clock that runs a little behind. */
const BACKDATE_MS = 60 * 60 * 1000;

/** Where the files are. The two key files are mode 0600; nothing here logs or prints a key. */
export interface TlsFiles {
  readonly dir: string;
  /** The authority's certificate: what a game's machine trusts. */
  readonly caCert: string;
  readonly caKey: string;
  readonly serverCert: string;
  readonly serverKey: string;
}

export function tlsFiles(dataDir: string): TlsFiles {
  const dir = path.join(dataDir, TLS_DIR_NAME);
  return {
    dir,
    caCert: path.join(dir, 'companion-ca.pem'),
    caKey: path.join(dir, 'companion-ca.key'),
    serverCert: path.join(dir, 'localhost.pem'),
    serverKey: path.join(dir, 'localhost.key'),
  };
}

/** What a TLS listener needs, and what the store did to get it. */
export interface ServerCredentials {
  /** The server certificate followed by the authority's (the chain a client is sent). */
  readonly certChainPem: string;
  readonly keyPem: string;
  readonly caCertPem: string;
  readonly files: TlsFiles;
  /** The authority was made now (a game's machine must trust it again). */
  readonly newAuthority: boolean;
  /** The server certificate was made now. */
  readonly newServerCertificate: boolean;
  /** When the server certificate stops being valid. */
  readonly serverNotAfter: Date;
}

export interface CertificateStoreOptions {
  readonly dataDir: string;
  /** The clock that decides whether a certificate has expired (epoch ms). */
  readonly now: () => number;
}

async function readPair(certFile: string, keyFile: string): Promise<IssuedCertificate | undefined> {
  try {
    return { certPem: await readFile(certFile, 'utf8'), keyPem: await readFile(keyFile, 'utf8') };
  } catch {
    return undefined;
  }
}

/** Parsed, or undefined when it is not a certificate and its key. */
function parse(pair: IssuedCertificate | undefined): X509Certificate | undefined {
  if (pair === undefined) return undefined;
  try {
    const certificate = new X509Certificate(pair.certPem);
    return certificate.checkPrivateKey(createPrivateKey(pair.keyPem)) ? certificate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The emulator's loopback certificates, kept in `<dataDir>/tls/`: reused across runs while
 * valid, the server certificate made again when it expires (or is missing, damaged, or not
 * the authority's), the authority made again only when it expires or is missing. The clock is
 * the store's own, so tests move it without touching the emulator's options.
 */
export class CertificateStore {
  readonly files: TlsFiles;

  constructor(private readonly options: CertificateStoreOptions) {
    this.files = tlsFiles(options.dataDir);
  }

  async credentials(): Promise<ServerCredentials> {
    await mkdir(this.files.dir, { recursive: true, mode: 0o700 });
    await chmod(this.files.dir, 0o700);
    const authority = await this.authority();
    const server = await this.server(authority.pair, authority.fresh);
    return {
      certChainPem: server.pair.certPem + authority.pair.certPem,
      keyPem: server.pair.keyPem,
      caCertPem: authority.pair.certPem,
      files: this.files,
      newAuthority: authority.fresh,
      newServerCertificate: server.fresh,
      serverNotAfter: new Date(server.certificate.validTo),
    };
  }

  private usable(certificate: X509Certificate | undefined): certificate is X509Certificate {
    if (certificate === undefined) return false;
    const now = this.options.now();
    return Date.parse(certificate.validFrom) <= now && now < Date.parse(certificate.validTo) - RENEW_MARGIN_MS;
  }

  /** From (a little before) now for `lifetimeMs`, never past `until` (a certificate outliving its issuer is useless). */
  private validity(lifetimeMs: number, until = Number.POSITIVE_INFINITY): Validity {
    const now = this.options.now();
    return { notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(Math.min(now + lifetimeMs, until)) };
  }

  private async authority(): Promise<{ pair: IssuedCertificate; fresh: boolean }> {
    const kept = await readPair(this.files.caCert, this.files.caKey);
    const certificate = parse(kept);
    if (kept !== undefined && this.usable(certificate) && certificate.ca) return { pair: kept, fresh: false };
    const { makeAuthority } = await import('./certificate-maker.js');
    const made = await makeAuthority(AUTHORITY_NAME, this.validity(AUTHORITY_LIFETIME_MS));
    await this.write(this.files.caCert, this.files.caKey, made);
    return { pair: made, fresh: true };
  }

  private async server(authority: IssuedCertificate, newAuthority: boolean): Promise<{ pair: IssuedCertificate; certificate: X509Certificate; fresh: boolean }> {
    const kept = newAuthority ? undefined : await readPair(this.files.serverCert, this.files.serverKey);
    const certificate = parse(kept);
    const issuer = new X509Certificate(authority.certPem);
    if (kept !== undefined && this.usable(certificate) && certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey)) {
      return { pair: kept, certificate, fresh: false };
    }
    const { makeServerCertificate } = await import('./certificate-maker.js');
    const made = await makeServerCertificate(authority, this.validity(SERVER_LIFETIME_MS, Date.parse(issuer.validTo)));
    await this.write(this.files.serverCert, this.files.serverKey, made);
    return { pair: made, certificate: new X509Certificate(made.certPem), fresh: true };
  }

  /** The key first (0600, as every file written atomically), then the certificate beside it. */
  private async write(certFile: string, keyFile: string, pair: IssuedCertificate): Promise<void> {
    await writeFileAtomic(keyFile, pair.keyPem);
    await writeFileAtomic(certFile, pair.certPem);
    await chmod(certFile, 0o644);
  }
}
