import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';

/** What signing needs of an application: its Ed25519 keys as the state stores them. */
export interface SigningApp {
  /** Raw public key, hex. */
  readonly public_key: string;
  /** PKCS#8 DER, base64. */
  readonly private_key: string;
}

export interface WebhookSignatureHeaders {
  readonly 'X-Signature-Ed25519': string;
  readonly 'X-Signature-Timestamp': string;
}

/** DER prefix of an Ed25519 SPKI public key; the raw 32 bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Signs `timestamp + body` (UTF-8) with the app's key, as the platform signs webhook events. */
export function signWebhook(app: SigningApp, body: string, timestamp: string): WebhookSignatureHeaders {
  const key = createPrivateKey({ key: Buffer.from(app.private_key, 'base64'), format: 'der', type: 'pkcs8' });
  const signature = sign(null, Buffer.from(timestamp + body, 'utf8'), key);
  return { 'X-Signature-Ed25519': signature.toString('hex'), 'X-Signature-Timestamp': timestamp };
}

/**
 * Checks a webhook request as a receiver would: the hex signature over `timestamp + body`
 * with the app's hex public key. False for any malformed input rather than throwing.
 */
export function verifyWebhook(publicKeyHex: string, body: string, signatureHex: string, timestamp: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(publicKeyHex) || !/^[0-9a-f]{128}$/i.test(signatureHex)) return false;
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });
    return verify(null, Buffer.from(timestamp + body, 'utf8'), key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}
