import { describe, expect, it } from 'vitest';
import { ApplicationDirectory, DIRECTORY_MAX_ENTRIES, REFUSED, type ApplicationLookup } from '../../../src/host/compose/application-directory.js';
import type { RpcApplication } from '../../../../platform/src/wire/index.js';

const APP = '1234567890123456789';
const OTHER_APP = '9876543210987654321';
const START = 1_700_000_000_000;
const UNKNOWN_TTL = 30_000;

function app(id: string, name: string): RpcApplication {
  return { id, name, icon: null, description: '', cover_image: null, verified: true, rpc_origins: [] };
}

interface Deferred {
  readonly id: string;
  resolve(value: RpcApplication | null | typeof REFUSED): void;
  reject(error: unknown): void;
}

/** A lookup whose answers the test gives by hand, recording every request. */
class ManualLookup implements ApplicationLookup {
  readonly requests: Deferred[] = [];

  application(id: string): Promise<RpcApplication | null | typeof REFUSED> {
    return new Promise((resolve, reject) => this.requests.push({ id, resolve, reject }));
  }

  last(): Deferred {
    const request = this.requests.at(-1);
    if (request === undefined) throw new Error('no lookup was made');
    return request;
  }
}

function directory(): { directory: ApplicationDirectory; lookup: ManualLookup; clock: { time: number } } {
  const lookup = new ManualLookup();
  const clock = { time: START };
  return { directory: new ApplicationDirectory(lookup, () => clock.time, UNKNOWN_TTL), lookup, clock };
}

describe('ApplicationDirectory', () => {
  it('looks a known app up once and answers from the cache for 10 minutes, synchronously; then asks again', async () => {
    const { directory: apps, lookup, clock } = directory();
    const first = apps.resolve(APP);
    expect(first).toBeInstanceOf(Promise);
    lookup.last().resolve(app(APP, 'Demo Game'));
    await expect(first).resolves.toEqual({ name: 'Demo Game' });

    clock.time = START + 9 * 60 * 1000;
    expect(apps.resolve(APP)).toEqual({ name: 'Demo Game' });
    expect(lookup.requests.map((r) => r.id)).toEqual([APP]);

    // A rename on the platform shows once the entry is older than 10 minutes.
    clock.time = START + 11 * 60 * 1000;
    const again = apps.resolve(APP);
    expect(again).toBeInstanceOf(Promise);
    lookup.last().resolve(app(APP, 'Renamed Game'));
    await expect(again).resolves.toEqual({ name: 'Renamed Game' });
    expect(lookup.requests.map((r) => r.id)).toEqual([APP, APP]);
  });

  it('shares one request between concurrent resolves of one app', async () => {
    const { directory: apps, lookup } = directory();
    const first = apps.resolve(APP);
    const second = apps.resolve(APP);
    const other = apps.resolve(OTHER_APP);
    expect(lookup.requests.map((r) => r.id)).toEqual([APP, OTHER_APP]);
    expect(second).toBe(first);

    lookup.requests[0]?.resolve(app(APP, 'Demo Game'));
    lookup.requests[1]?.resolve(app(OTHER_APP, 'Other Game'));
    await expect(first).resolves.toEqual({ name: 'Demo Game' });
    await expect(second).resolves.toEqual({ name: 'Demo Game' });
    await expect(other).resolves.toEqual({ name: 'Other Game' });
  });

  it('shares one request between concurrent resolves of an unknown app', async () => {
    const { directory: apps, lookup } = directory();
    const first = apps.resolve(APP);
    const second = apps.resolve(APP);
    expect(lookup.requests).toHaveLength(1);
    lookup.last().resolve(null);
    await expect(first).resolves.toBeNull();
    await expect(second).resolves.toBeNull();
  });

  it('caches an unknown app for the TTL, counted from the answer, then asks again', async () => {
    const { directory: apps, lookup, clock } = directory();
    const first = apps.resolve(APP);
    clock.time = START + 5_000; // the answer arrives later than the request
    lookup.last().resolve(null);
    await expect(first).resolves.toBeNull();

    clock.time = START + 5_000 + UNKNOWN_TTL - 1;
    expect(apps.resolve(APP)).toBeNull();
    expect(lookup.requests).toHaveLength(1);

    clock.time = START + 5_000 + UNKNOWN_TTL;
    const again = apps.resolve(APP);
    expect(again).toBeInstanceOf(Promise);
    expect(lookup.requests).toHaveLength(2);
    lookup.last().resolve(app(APP, 'Registered Meanwhile'));
    await expect(again).resolves.toEqual({ name: 'Registered Meanwhile' });
    expect(apps.resolve(APP)).toEqual({ name: 'Registered Meanwhile' });
  });

  it('does not cache a failed lookup: the rejection propagates and the next resolve asks again', async () => {
    const { directory: apps, lookup } = directory();
    const failure = new Error('platform unreachable');
    const first = apps.resolve(APP);
    const concurrent = apps.resolve(APP);
    lookup.last().reject(failure);
    await expect(first).rejects.toBe(failure);
    await expect(concurrent).rejects.toBe(failure);

    const second = apps.resolve(APP);
    expect(lookup.requests).toHaveLength(2);
    lookup.last().resolve(app(APP, 'Demo Game'));
    await expect(second).resolves.toEqual({ name: 'Demo Game' });
  });

  it('does not remember a refusal for now (rate limited): unknown this time, asked again next time', async () => {
    const { directory: apps, lookup } = directory();
    const first = apps.resolve(APP);
    lookup.last().resolve(REFUSED);
    await expect(first).resolves.toBeNull();
    const second = apps.resolve(APP);
    expect(second).toBeInstanceOf(Promise);
    expect(lookup.requests).toHaveLength(2);
    lookup.last().resolve(app(APP, 'Demo Game'));
    await expect(second).resolves.toEqual({ name: 'Demo Game' });
  });

  it('10,000 distinct ids leave at most DIRECTORY_MAX_ENTRIES known and as many unknown; a recent one is still cached', async () => {
    const { directory: apps, lookup } = directory();
    for (let n = 0; n < 10_000; n += 1) {
      const id = String(100_000_000_000_000_000n + BigInt(n));
      const pending = apps.resolve(id);
      lookup.last().resolve(n % 2 === 0 ? null : app(id, `Game ${n}`));
      await pending;
    }
    expect(apps.cached).toBeLessThanOrEqual(2 * DIRECTORY_MAX_ENTRIES);
    expect(apps.cached).toBeGreaterThan(0);
    expect(apps.resolve(String(100_000_000_000_000_000n + 9_999n))).toEqual({ name: 'Game 9999' });
    expect(apps.resolve(String(100_000_000_000_000_000n + 9_998n))).toBeNull();
    expect(lookup.requests).toHaveLength(10_000);
  });
});
