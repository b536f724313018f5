import { setTimeout as delay } from 'node:timers/promises';
import { deadline } from '../../../common/src/deadline.js';
import type { PlatformLogger } from '../support/logger.js';
import type { WebhookEnvelope } from '../wire/index.js';
import { signWebhook, type SigningApp } from './signer.js';

/** What a delivery needs of an application, taken when the event happens. */
export interface WebhookApp extends SigningApp {
  readonly id: string;
  readonly webhook_events_url: string | null;
}

/** Waits `ms` before a retry; rejects (or resolves) when `signal` aborts. */
export type WebhookSleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface WebhookDelivererOptions {
  readonly now: () => number;
  readonly logger: PlatformLogger;
  /** An attempt not answered within this long fails (and is retried). */
  readonly timeoutMs: number;
  /** The first retry waits this long, each next one twice as long as the previous. */
  readonly retryFirstMs: number;
  /** A retry that would wait longer than this is not made: the delivery gives up. */
  readonly retryMaxMs: number;
  /** Tests pass one that records the delays and resolves at once. */
  readonly sleep?: WebhookSleep;
  readonly fetch?: typeof fetch;
}

const defaultSleep: WebhookSleep = (ms, signal) => delay(ms, undefined, { signal, ref: false });

/**
 * POSTs webhook envelopes to an app's webhook-events URL, signed with the app's Ed25519 key
 * (`X-Signature-Ed25519` / `X-Signature-Timestamp` over timestamp + body). A non-2xx answer,
 * a network error or a timeout is retried with exponential backoff. Deliveries run in the
 * background: `deliver` returns at once, so an HTTP response never waits for a receiver.
 */
export class WebhookDeliverer {
  private readonly abort = new AbortController();
  private readonly pending = new Set<Promise<void>>();
  private readonly sleep: WebhookSleep;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: WebhookDelivererOptions) {
    this.sleep = options.sleep ?? defaultSleep;
    this.fetch = options.fetch ?? fetch;
  }

  /** Starts delivering; nothing happens when the app has no webhook URL. */
  deliver(app: WebhookApp, envelope: WebhookEnvelope): void {
    const url = app.webhook_events_url;
    if (url === null || this.abort.signal.aborted) return;
    const keys: SigningApp = { public_key: app.public_key, private_key: app.private_key };
    const run = this.run(url, keys, envelope).catch((error: unknown) => {
      this.options.logger.error({ applicationId: envelope.application_id, error: error instanceof Error ? error.name : 'error' }, 'webhook delivery failed');
    });
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /** An event (`type: 1` envelope) that happened at `at` (epoch ms), delivered as `deliver` does. */
  deliverEvent(app: WebhookApp, type: string, data: unknown, at: number): void {
    this.deliver(app, { version: 1, application_id: app.id, type: 1, event: { type, timestamp: new Date(at).toISOString(), data } });
  }

  /** Resolves when every delivery in progress has ended (delivered or given up). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Stops every delivery (pending retries are dropped). */
  async close(): Promise<void> {
    this.abort.abort();
    await this.idle();
  }

  private async run(url: string, keys: SigningApp, envelope: WebhookEnvelope): Promise<void> {
    const { logger } = this.options;
    const body = JSON.stringify(envelope);
    const what = { applicationId: envelope.application_id, type: envelope.event?.type ?? 'PING' };
    let wait = this.options.retryFirstMs;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attempt(url, keys, body);
      if (this.abort.signal.aborted) return;
      if (outcome === 'ok') {
        logger.debug({ ...what, attempt }, 'webhook delivered');
        return;
      }
      if (wait > this.options.retryMaxMs) {
        logger.warn({ ...what, attempt, outcome }, 'webhook delivery given up');
        return;
      }
      logger.debug({ ...what, attempt, outcome, retryInMs: wait }, 'webhook delivery failed, retrying');
      try {
        await this.sleep(wait, this.abort.signal);
      } catch {
        return;
      }
      if (this.abort.signal.aborted) return;
      wait *= 2;
    }
  }

  /** One POST: 'ok' for a 2xx answer, else the status or what went wrong. */
  private async attempt(url: string, keys: SigningApp, body: string): Promise<'ok' | number | 'timeout' | 'network'> {
    const timestamp = String(Math.floor(this.options.now() / 1000));
    const timer = deadline(this.options.timeoutMs, this.abort.signal);
    const signal = timer.signal;
    try {
      const response = await this.fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'CompanionPlatformEmulator (webhooks, 1)', ...signWebhook(keys, body, timestamp) },
        body,
        signal,
        redirect: 'manual',
      });
      await response.body?.cancel().catch(() => undefined);
      return response.status >= 200 && response.status < 300 ? 'ok' : response.status;
    } catch (error) {
      return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? 'timeout' : 'network';
    } finally {
      timer.end();
    }
  }
}
