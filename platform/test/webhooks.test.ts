import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../src/index.js';
import { startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';
import { storedState } from './support/stored-state.js';

interface StoredApp {
  id: string;
  public_key: string;
  private_key: string;
}

/** The seeded app's keys as the emulator stored them. */
async function seededAppKeys(): Promise<StoredApp> {
  const dataDir = await tempDir();
  const platform = await startTestPlatform({ dataDir });
  await stopTestPlatform(platform);
  const state = await storedState(dataDir);
  return state.apps[0] as StoredApp;
}

describe('webhook signatures', () => {
  it('signs timestamp + body so the app public key verifies it', async () => {
    const app = await seededAppKeys();
    const body = JSON.stringify({ version: 1, application_id: app.id, type: 0 });
    const headers = signWebhook(app, body, '1767225600');
    expect(headers['X-Signature-Timestamp']).toBe('1767225600');
    expect(headers['X-Signature-Ed25519']).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyWebhook(app.public_key, body, headers['X-Signature-Ed25519'], '1767225600')).toBe(true);
  });

  it('detects a changed body, timestamp, signature or key', async () => {
    const app = await seededAppKeys();
    const other = await seededAppKeys();
    const body = '{"type":1,"event":{"type":"APPLICATION_AUTHORIZED"}}';
    const { 'X-Signature-Ed25519': signature } = signWebhook(app, body, '100');
    expect(verifyWebhook(app.public_key, body.replace('1', '0'), signature, '100')).toBe(false);
    expect(verifyWebhook(app.public_key, body, signature, '101')).toBe(false);
    const flipped = (signature.startsWith('0') ? '1' : '0') + signature.slice(1);
    expect(verifyWebhook(app.public_key, body, flipped, '100')).toBe(false);
    expect(verifyWebhook(other.public_key, body, signature, '100')).toBe(false);
    expect(verifyWebhook(app.public_key, body, 'not hex', '100')).toBe(false);
  });
});
