/**
 * The load generator. It runs in a worker thread so the orchestrating thread stays idle and
 * can sample /proc at the edges of a measurement window. The same code drives both servers.
 *
 * Hot path: requests are pre-encoded frames with a fixed-width nonce patched in; replies are
 * decoded incrementally with rpc's FrameDecoder and matched by nonce, read from the fixed
 * tail `"evt":null,"nonce":"…"}` (full JSON parse when the tail differs, and for 1 reply in
 * 1000 as a validation sample). Every reply must remove a nonce from its connection's set of
 * outstanding requests: an unknown or repeated nonce is a mismatch, a nonce left at the end a
 * lost reply.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { encodeFrame, FrameDecoder } from '../../rpc/src/framing/frame-codec.js';
import {
  COUNTER,
  summarize,
  type HandshakeLatencyResult,
  type HoldResult,
  type LoadPrepareResult,
  type LoadStopResult,
  type MatchCounts,
  type PingResult,
  type RttResult,
  type WorkerEnvelope,
  type WorkerReply,
  type WorkerRequest,
  type WorkerResults,
} from './messages.js';
import {
  fastReplyNonce,
  handshakeFrame,
  OP,
  parseReply,
  readyProblem,
  setActivityTemplate,
  stampRequests,
  type ReplyExpectation,
  type RequestTemplate,
} from './shared.js';

const port = parentPort;
if (port === null) throw new Error('load-worker must run in a worker thread');
const counters = new Int32Array((workerData as { counters: SharedArrayBuffer }).counters);

const HANDSHAKE = handshakeFrame();
const OPEN_TIMEOUT_MS = 10_000;
const VALIDATE_EVERY = 1000;

interface Sink {
  frame(opcode: number, body: Buffer): void;
  /** After all frames of one socket read: the place to batch writes. */
  flush(): void;
  closed(): void;
}

class Conn {
  private readonly decoder = new FrameDecoder(16 * 1024 * 1024);
  sink: Sink | null = null;
  open = true;

  constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      let frames;
      try {
        frames = this.decoder.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      const sink = this.sink;
      if (sink === null) return;
      for (const frame of frames) sink.frame(frame.opcode, frame.body);
      sink.flush();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.open = false;
      this.sink?.closed();
    });
  }
}

interface Opened {
  readonly conn: Conn;
  readonly handshakeUs: number;
  readonly connectUs: number;
}

/** Connects, sends HANDSHAKE, resolves on a valid READY. */
function openConn(path: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const tConnect = performance.now();
    let tHandshake = 0;
    let settled = false;
    const socket = net.createConnection({ path });
    const conn = new Conn(socket);
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.sink = null;
      socket.destroy();
      reject(new Error(why));
    };
    const timer = setTimeout(() => fail('timeout waiting for READY'), OPEN_TIMEOUT_MS);
    socket.once('error', (error: Error) => fail(`socket error: ${error.message}`));
    socket.once('connect', () => {
      tHandshake = performance.now();
      socket.write(HANDSHAKE);
    });
    conn.sink = {
      frame(opcode, body) {
        if (settled) return;
        const t = performance.now();
        const problem = readyProblem(opcode, body);
        if (problem !== null) {
          fail(problem);
          return;
        }
        settled = true;
        clearTimeout(timer);
        conn.sink = null;
        resolve({ conn, handshakeUs: (t - tHandshake) * 1000, connectUs: (t - tConnect) * 1000 });
      },
      flush() {},
      closed() {
        fail('connection closed before READY');
      },
    };
  });
}

async function openMany(
  path: string,
  count: number,
  concurrency: number,
): Promise<{ conns: Conn[]; failed: number; firstFailure: string | null }> {
  const conns: Conn[] = [];
  let failed = 0;
  let firstFailure: string | null = null;
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      next += 1;
      try {
        conns.push((await openConn(path)).conn);
      } catch (error) {
        failed += 1;
        firstFailure ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return { conns, failed, firstFailure };
}

/** Ends every connection (the server closes its side) and waits, destroying stragglers. */
async function closeAll(conns: readonly Conn[], graceMs = 2000): Promise<number> {
  const waits = conns
    .filter((conn) => conn.open)
    .map(
      (conn) =>
        new Promise<void>((resolve) => {
          conn.sink = null;
          conn.socket.once('close', () => resolve());
          conn.socket.end();
        }),
    );
  const timer = setTimeout(() => {
    for (const conn of conns) if (conn.open) conn.socket.destroy();
  }, graceMs);
  await Promise.all(waits);
  clearTimeout(timer);
  return waits.length;
}

const held = new Map<string, Conn[]>();

async function hold(path: string, key: string, count: number, concurrency: number): Promise<HoldResult> {
  const t0 = performance.now();
  const { conns, failed, firstFailure } = await openMany(path, count, concurrency);
  held.set(key, [...(held.get(key) ?? []), ...conns]);
  return { requested: count, ready: conns.length, failed, firstFailure, ms: Math.round(performance.now() - t0) };
}

function pingHeld(key: string, timeoutMs: number): Promise<PingResult> {
  const conns = held.get(key) ?? [];
  const t0 = performance.now();
  const open = conns.filter((conn) => conn.open);
  return new Promise((resolve) => {
    let ponged = 0;
    const done = (): void => {
      clearTimeout(timer);
      for (const conn of open) conn.sink = null;
      resolve({ held: conns.length, open: conns.filter((conn) => conn.open).length, ponged, ms: Math.round(performance.now() - t0) });
    };
    const timer = setTimeout(done, timeoutMs);
    if (open.length === 0) return done();
    open.forEach((conn, i) => {
      let answered = false;
      conn.sink = {
        frame(opcode) {
          if (opcode !== OP.Pong || answered) return;
          answered = true;
          ponged += 1;
          if (ponged === open.length) done();
        },
        flush() {},
        closed() {},
      };
      conn.socket.write(encodeFrame(OP.Ping, { n: i }));
    });
  });
}

async function releaseHeld(key: string): Promise<{ closed: number }> {
  const conns = held.get(key) ?? [];
  held.delete(key);
  return { closed: await closeAll(conns) };
}

/**
 * Handshake -> READY on a fresh connection per sample, interleaving the servers sample by
 * sample (alternating which goes first) so both see the same machine noise.
 */
async function handshakeLatency(paths: readonly string[], warmup: number, samples: number): Promise<HandshakeLatencyResult[]> {
  const state = paths.map(() => ({
    toReady: new Float64Array(samples),
    fromConnect: new Float64Array(samples),
    n: 0,
    failures: 0,
    firstFailure: null as string | null,
  }));
  for (let i = 0; i < warmup + samples; i += 1) {
    for (let k = 0; k < paths.length; k += 1) {
      const index = i % 2 === 0 ? k : paths.length - 1 - k;
      const s = state[index] as (typeof state)[number];
      let opened: Opened;
      try {
        opened = await openConn(paths[index] as string);
      } catch (error) {
        s.failures += 1;
        s.firstFailure ??= error instanceof Error ? error.message : String(error);
        continue;
      }
      if (i >= warmup) {
        s.toReady[s.n] = opened.handshakeUs;
        s.fromConnect[s.n] = opened.connectUs;
        s.n += 1;
      }
      await closeAll([opened.conn]);
    }
  }
  return state.map((s) => ({
    handshakeToReady: summarize(s.toReady.subarray(0, s.n)),
    connectToReady: summarize(s.fromConnect.subarray(0, s.n)),
    failures: s.failures,
    firstFailure: s.firstFailure,
  }));
}

/** Per-phase match accounting shared by the latency and load phases. */
class Tally {
  sent = 0;
  replies = 0;
  mismatched = 0;
  errorReplies = 0;
  invalid = 0;
  validated = 0;
  slowParsed = 0;
  outOfOrder = 0;
  droppedConnections = 0;
  firstProblem: string | null = null;
  private sinceValidation = 0;

  constructor(private readonly expect: ReplyExpectation) {}

  note(problem: string): void {
    this.firstProblem ??= problem;
  }

  /** The reply's nonce, or -1; `validateAll` parses every reply fully. */
  nonceOf(opcode: number, body: Buffer, validateAll: boolean): number {
    if (opcode !== OP.Frame) {
      this.note(`reply with opcode ${opcode}: ${body.toString('utf8', 0, 200)}`);
      return -1;
    }
    let nonce = fastReplyNonce(body);
    this.sinceValidation += 1;
    if (nonce < 0 || validateAll || this.sinceValidation >= VALIDATE_EVERY) {
      if (nonce < 0) this.slowParsed += 1;
      this.sinceValidation = 0;
      this.validated += 1;
      const parsed = parseReply(body, this.expect);
      if (parsed.error) this.errorReplies += 1;
      if (parsed.problem !== null) {
        this.invalid += 1;
        this.note(parsed.problem);
      }
      if (nonce >= 0 && parsed.nonce !== nonce) {
        this.note(`fast path read nonce ${nonce}, JSON says ${parsed.nonce}`);
        this.invalid += 1;
      }
      nonce = parsed.nonce;
    }
    return nonce;
  }

  counts(lost: number): MatchCounts {
    return {
      sent: this.sent,
      replies: this.replies,
      lost,
      mismatched: this.mismatched,
      errorReplies: this.errorReplies,
      invalid: this.invalid,
      validated: this.validated,
      slowParsed: this.slowParsed,
      outOfOrder: this.outOfOrder,
      droppedConnections: this.droppedConnections,
      firstProblem: this.firstProblem,
    };
  }
}

let pidCounter = 40_000;

/** Sequential SET_ACTIVITY round trips on one connection, every reply fully validated. */
class SequentialRunner {
  readonly tally: Tally;
  private readonly template = setActivityTemplate((pidCounter += 1));
  private readonly rtts: Float64Array;
  private recorded = 0;
  private seq = 0;
  broken: string | null = null;

  constructor(
    readonly conn: Conn,
    expect: ReplyExpectation,
    capacity: number,
  ) {
    this.tally = new Tally(expect);
    this.rtts = new Float64Array(capacity);
  }

  /** `count` round trips, one at a time; records their RTT when `record`. */
  run(count: number, record: boolean): Promise<void> {
    const { conn, tally } = this;
    if (this.broken !== null || count === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let done = 0;
      let sentAt = 0;
      const timer = setTimeout(() => finish('timeout waiting for a reply'), 30_000);
      const finish = (problem: string | null): void => {
        clearTimeout(timer);
        if (problem !== null) {
          this.broken = problem;
          tally.note(problem);
        }
        conn.sink = null;
        resolve();
      };
      const send = (): void => {
        const buf = stampRequests(this.template, this.seq, 1);
        this.seq += 1;
        tally.sent += 1;
        sentAt = performance.now();
        conn.socket.write(buf);
      };
      conn.sink = {
        frame: (opcode, body) => {
          const t = performance.now();
          const nonce = tally.nonceOf(opcode, body, true);
          if (nonce !== this.seq - 1) {
            tally.mismatched += 1;
            finish(`expected nonce ${this.seq - 1}, got ${nonce}`);
            return;
          }
          tally.replies += 1;
          if (record && this.recorded < this.rtts.length) this.rtts[this.recorded++] = (t - sentAt) * 1000;
          done += 1;
          if (done === count) finish(null);
          else send();
        },
        flush() {},
        closed() {
          tally.droppedConnections += 1;
          finish('connection closed during the latency run');
        },
      };
      send();
    });
  }

  result(): RttResult {
    return { ...this.tally.counts(this.tally.sent - this.tally.replies), rtt: summarize(this.rtts.subarray(0, this.recorded)) };
  }
}

const RTT_BLOCK = 100;

/**
 * SET_ACTIVITY round trips, one connection per server, alternating between the servers in
 * blocks of RTT_BLOCK requests so that both see the same machine noise.
 */
async function activityLatency(
  targets: readonly { readonly path: string; readonly expect: ReplyExpectation }[],
  warmup: number,
  samples: number,
): Promise<RttResult[]> {
  const runners: SequentialRunner[] = [];
  for (const target of targets) runners.push(new SequentialRunner((await openConn(target.path)).conn, target.expect, samples));
  const order = (block: number): SequentialRunner[] => (block % 2 === 0 ? runners : [...runners].reverse());
  for (let done = 0, block = 0; done < warmup; done += RTT_BLOCK, block += 1) {
    for (const runner of order(block)) await runner.run(Math.min(RTT_BLOCK, warmup - done), false);
  }
  for (let done = 0, block = 0; done < samples; done += RTT_BLOCK, block += 1) {
    for (const runner of order(block)) await runner.run(Math.min(RTT_BLOCK, samples - done), true);
  }
  const results = runners.map((runner) => runner.result());
  await closeAll(runners.map((runner) => runner.conn));
  return results;
}

class LoadClient implements Sink {
  private seq = 0;
  private pending = 0;
  private lastNonce = -1;
  private sentAt = 0;
  readonly outstanding = new Set<number>();

  constructor(
    readonly conn: Conn,
    private readonly template: RequestTemplate,
    private readonly phase: LoadPhase,
  ) {
    conn.sink = this;
  }

  send(count: number): void {
    const buf = stampRequests(this.template, this.seq, count);
    for (let i = 0; i < count; i += 1) this.outstanding.add(this.seq + i);
    this.seq += count;
    this.phase.tally.sent += count;
    counters[COUNTER.Sent] = (counters[COUNTER.Sent] as number) + count;
    this.sentAt = performance.now();
    this.conn.socket.write(buf);
  }

  frame(opcode: number, body: Buffer): void {
    const phase = this.phase;
    const tally = phase.tally;
    const nonce = tally.nonceOf(opcode, body, false);
    if (!this.outstanding.delete(nonce)) {
      tally.mismatched += 1;
      tally.note(`nonce ${nonce} was not outstanding on its connection`);
      return;
    }
    if (nonce < this.lastNonce) tally.outOfOrder += 1;
    this.lastNonce = nonce;
    tally.replies += 1;
    counters[COUNTER.Replies] = (counters[COUNTER.Replies] as number) + 1;
    if (phase.recordRtt) {
      const t = performance.now();
      if (t >= phase.rttFrom) phase.rtts.push((t - this.sentAt) * 1000);
    }
    this.pending += 1;
  }

  flush(): void {
    if (this.pending > 0 && this.phase.running) this.send(this.pending);
    this.pending = 0;
  }

  closed(): void {
    if (!this.phase.closing) {
      this.phase.tally.droppedConnections += 1;
      this.phase.tally.note('a connection closed during the load phase');
    }
  }
}

class LoadPhase {
  readonly tally: Tally;
  readonly clients: LoadClient[] = [];
  readonly rtts: number[] = [];
  readonly recordRtt: boolean;
  rttFrom = Infinity;
  running = false;
  closing = false;

  constructor(
    readonly inFlight: number,
    expect: ReplyExpectation,
  ) {
    this.tally = new Tally(expect);
    this.recordRtt = inFlight === 1;
  }

  outstanding(): number {
    let n = 0;
    for (const client of this.clients) n += client.outstanding.size;
    return n;
  }
}

let load: LoadPhase | null = null;

async function loadPrepare(path: string, clients: number, inFlight: number, expect: ReplyExpectation): Promise<LoadPrepareResult> {
  if (load !== null) throw new Error('a load phase is already prepared');
  const phase = new LoadPhase(inFlight, expect);
  const { conns, failed, firstFailure } = await openMany(path, clients, 32);
  for (const conn of conns) phase.clients.push(new LoadClient(conn, setActivityTemplate((pidCounter += 1)), phase));
  load = phase;
  return { connected: conns.length, failed, firstFailure };
}

function loadStart(warmupMs: number): { started: number } {
  const phase = load;
  if (phase === null) throw new Error('no load phase prepared');
  counters.fill(0);
  phase.running = true;
  phase.rttFrom = performance.now() + warmupMs;
  for (const client of phase.clients) client.send(phase.inFlight);
  return { started: phase.clients.length };
}

async function loadStop(drainTimeoutMs: number): Promise<LoadStopResult> {
  const phase = load;
  if (phase === null) throw new Error('no load phase prepared');
  phase.running = false;
  const t0 = performance.now();
  while (phase.outstanding() > 0 && performance.now() - t0 < drainTimeoutMs) {
    if (phase.clients.every((client) => !client.conn.open)) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const drainMs = Math.round(performance.now() - t0);
  const lost = phase.outstanding();
  phase.closing = true;
  await closeAll(phase.clients.map((client) => client.conn));
  load = null;
  return {
    ...phase.tally.counts(lost),
    clients: phase.clients.length,
    inFlight: phase.inFlight,
    rttUnderLoad: phase.recordRtt ? summarize(Float64Array.from(phase.rtts)) : null,
    drainMs,
  };
}

async function dispatch(request: WorkerRequest): Promise<WorkerResults[WorkerRequest['op']]> {
  switch (request.op) {
    case 'hold':
      return hold(request.path, request.key, request.count, request.concurrency);
    case 'pingHeld':
      return pingHeld(request.key, request.timeoutMs);
    case 'releaseHeld':
      return releaseHeld(request.key);
    case 'handshakeLatency':
      return handshakeLatency(request.paths, request.warmup, request.samples);
    case 'activityLatency':
      return activityLatency(request.targets, request.warmup, request.samples);
    case 'loadPrepare':
      return loadPrepare(request.path, request.clients, request.inFlight, request.expect);
    case 'loadStart':
      return loadStart(request.warmupMs);
    case 'loadStop':
      return loadStop(request.drainTimeoutMs);
  }
}

port.on('message', (envelope: WorkerEnvelope) => {
  dispatch(envelope.request).then(
    (result) => port.postMessage({ id: envelope.id, ok: true, result } satisfies WorkerReply),
    (error: unknown) =>
      port.postMessage({
        id: envelope.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies WorkerReply),
  );
});
