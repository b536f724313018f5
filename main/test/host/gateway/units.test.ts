import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Backoff } from '../../../src/host/gateway/backoff.js';
import { closeAction, fatalCloseDetail } from '../../../src/host/gateway/close-codes.js';
import { withGatewayQuery } from '../../../src/host/gateway/gateway-client.js';
import { Heartbeat } from '../../../src/host/gateway/heartbeat.js';
import { SendBudget } from '../../../src/host/gateway/send-budget.js';

describe('Backoff', () => {
  it('doubles up to the cap with jitter in [base/2, base], and resets', () => {
    let r = 0;
    const backoff = new Backoff({ initialMs: 500, maxMs: 60_000 }, () => r);
    expect([backoff.next(), backoff.next(), backoff.next()]).toEqual([250, 500, 1000]);
    r = 0.999_999;
    for (let i = 0; i < 20; i += 1) backoff.next();
    expect(backoff.next()).toBe(60_000);
    expect(backoff.attempts).toBe(24);
    backoff.reset();
    r = 0.5;
    expect(backoff.next()).toBe(375);
  });

  it('tolerates a random source outside [0, 1)', () => {
    expect(new Backoff({ initialMs: 100, maxMs: 100 }, () => 7).next()).toBeLessThanOrEqual(100);
    expect(new Backoff({ initialMs: 100, maxMs: 100 }, () => Number.NaN).next()).toBe(50);
  });
});

describe('SendBudget', () => {
  it('keeps the reserve for critical sends and slides its window', () => {
    let now = 0;
    const budget = new SendBudget({ count: 10, windowMs: 1000, reserve: 3 }, () => now);
    let normal = 0;
    while (budget.tryTake(false)) {
      normal += 1;
      now += 10;
    }
    expect(normal).toBe(7);
    expect([budget.tryTake(true), budget.tryTake(true), budget.tryTake(true), budget.tryTake(true)]).toEqual([true, true, true, false]);
    expect(budget.used).toBe(10);
    // The first send (t=0) leaves the window after 1000 ms plus 5 % slack.
    const wait = budget.msUntilFree(true);
    expect(wait).toBe(1050 - 70);
    now += wait - 1;
    expect(budget.tryTake(true)).toBe(false);
    now += 1;
    expect(budget.tryTake(true)).toBe(true);
    // Ten counted again: a non-critical send waits until the sends of t=10..40 age out (t=40 + 1050).
    expect(budget.tryTake(false)).toBe(false);
    expect(budget.msUntilFree(false)).toBe(40);
    now += 39;
    expect(budget.tryTake(false)).toBe(false);
    now += 1;
    expect(budget.tryTake(false)).toBe(true);
  });

  it('never allows more than count sends in any window under a steady flood', () => {
    let now = 0;
    const budget = new SendBudget({ count: 120, windowMs: 60_000, reserve: 5 }, () => now);
    const sent: number[] = [];
    for (let t = 0; t < 300_000; t += 50) {
      now = t;
      if (budget.tryTake(t % 20_000 === 0)) sent.push(t);
    }
    for (let i = 0; i < sent.length; i += 1) {
      const start = sent[i] ?? 0;
      const inWindow = sent.filter((t) => t >= start && t < start + 60_000).length;
      expect(inWindow).toBeLessThanOrEqual(120);
    }
    expect(sent.length).toBeGreaterThan(400);
  });

  it('starts empty after reset', () => {
    const budget = new SendBudget({ count: 2, windowMs: 1000, reserve: 0 }, () => 0);
    expect(budget.tryTake(false) && budget.tryTake(false)).toBe(true);
    expect(budget.tryTake(false)).toBe(false);
    budget.reset();
    expect(budget.tryTake(false)).toBe(true);
  });
});

describe('Heartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('beats first after interval × random(), then every interval; a missing ACK is a zombie', () => {
    const beat = vi.fn(() => true);
    const onZombie = vi.fn();
    const heartbeat = new Heartbeat({ intervalMs: 1000, random: () => 0.25, beat, onZombie, now: () => Date.now() });
    expect(heartbeat.start()).toBe(250);
    vi.advanceTimersByTime(249);
    expect(beat).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    expect(beat).toHaveBeenCalledTimes(1);
    heartbeat.ack();
    vi.advanceTimersByTime(1000);
    expect(beat).toHaveBeenCalledTimes(2);
    expect(onZombie).not.toHaveBeenCalled();
    // No ACK for the second beat: the third tick declares a zombie instead of beating.
    vi.advanceTimersByTime(1000);
    expect(beat).toHaveBeenCalledTimes(2);
    expect(onZombie).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(onZombie).toHaveBeenCalledTimes(1);
  });

  it('beats at once on request, without the zombie check, and measures latency', () => {
    let now = 0;
    const beat = vi.fn(() => true);
    const onZombie = vi.fn();
    const heartbeat = new Heartbeat({ intervalMs: 1000, random: () => 0.9, beat, onZombie, now: () => now });
    heartbeat.start();
    heartbeat.beatNow();
    heartbeat.beatNow();
    expect(beat).toHaveBeenCalledTimes(2);
    now = 42;
    heartbeat.ack();
    expect(heartbeat.latencyMs).toBe(42);
    heartbeat.stop();
    vi.advanceTimersByTime(10_000);
    expect(beat).toHaveBeenCalledTimes(2);
    expect(onZombie).not.toHaveBeenCalled();
  });

  it('does not wait for an ACK of a beat it could not send', () => {
    const onZombie = vi.fn();
    const heartbeat = new Heartbeat({ intervalMs: 100, random: () => 0, beat: () => false, onZombie, now: () => Date.now() });
    heartbeat.start();
    vi.advanceTimersByTime(1000);
    expect(onZombie).not.toHaveBeenCalled();
    heartbeat.stop();
  });
});

describe('close codes', () => {
  it('maps each code to stop, identify or resume', () => {
    for (const code of [4004, 4010, 4011, 4012, 4013, 4014]) expect(closeAction(code)).toBe('stop');
    for (const code of [1000, 4003, 4005, 4007, 4008, 4009]) expect(closeAction(code)).toBe('identify');
    for (const code of [1001, 1006, 4000, 4001, 4002, 4200]) expect(closeAction(code)).toBe('resume');
    expect(fatalCloseDetail(4004)).toContain('sign in again');
    expect(fatalCloseDetail(4999)).toContain('4999');
  });
});

describe('withGatewayQuery', () => {
  it('sets v and encoding and keeps other parameters', () => {
    expect(withGatewayQuery('ws://127.0.0.1:1/gateway')).toBe('ws://127.0.0.1:1/gateway?v=10&encoding=json');
    expect(withGatewayQuery('wss://x.test/?v=9&compress=zlib-stream')).toBe('wss://x.test/?v=10&compress=zlib-stream&encoding=json');
  });
});
