import { randomBytes } from 'node:crypto';

/** The platform's epoch for snowflakes (2015-01-01T00:00:00Z). */
export const SNOWFLAKE_EPOCH = 1_420_070_400_000;

export function snowflakeAt(ms: number, increment: number, worker = 1): string {
  return ((BigInt(ms - SNOWFLAKE_EPOCH) << 22n) | (BigInt(worker & 0x1f) << 17n) | BigInt(increment & 0xfff)).toString();
}

export function isSnowflake(value: string): boolean {
  return /^[0-9]{15,20}$/.test(value) && BigInt(value) < 1n << 64n;
}

/**
 * Snowflakes from the emulator's clock, strictly increasing even when the clock is a fake
 * that stands still or the state was written by an earlier run (its last id is persisted).
 */
export class SnowflakeGenerator {
  private increment = 0;

  constructor(
    private readonly now: () => number,
    private last: bigint = 0n,
  ) {}

  next(): string {
    this.increment = (this.increment + 1) & 0xfff;
    let id = BigInt(snowflakeAt(Math.max(this.now(), SNOWFLAKE_EPOCH), this.increment));
    if (id <= this.last) id = this.last + 1n;
    this.last = id;
    return id.toString();
  }

  get lastId(): string {
    return this.last.toString();
  }
}

/** A random secret: 32 bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A gateway session id: 32 hex digits. */
export function randomSessionId(): string {
  return randomBytes(16).toString('hex');
}
