/**
 * The `voice` phase (output key `voice`; run only when named: `npm run bench -- voice`): issue
 * 29's targets for lobby calls on loopback. The emulator runs in its own process (its voice
 * server relays); the SDK's voice engines (client-voice.ts: virtual devices, 20 ms audio clock,
 * jitter buffer) run in the bench process, one per participant, each with its own game token.
 *
 * - latency: two participants; BENCH_VOICE_TRIALS (30) times, a 200 ms 440 Hz tone is written
 *   into A's virtual input while the call is quiet, and the time to the first frame of B's
 *   virtual output with sound is taken (mouth to ear: the wait for A's 20 ms frame, the relay,
 *   B's jitter buffer and playout tick). Trials BENCH_VOICE_GAP_MS (600) plus a random 0-20 ms
 *   apart, so the VAD hangover ends, B's buffer goes quiet, and the onset falls anywhere in a frame.
 * - fan-out: a call of BENCH_VOICE_MEMBERS (25); one member speaks for BENCH_VOICE_TALK_S (5) s;
 *   frames received per listener against those sent, concealed ones, and CPU: the emulator's
 *   per relayed stream, the bench process's per participant (the SDK side of all 25).
 */
import { performance } from 'node:perf_hooks';
import { ClientVoice } from '../../rpc/client/client-voice.js';
import { createClientLogger } from '../../rpc/client/logger.js';
import { CallStatus } from '../../rpc/client/voice/call-types.js';
import type { Call } from '../../rpc/client/voice/call.js';
import { gameToken } from './lobby-phase.js';
import { admin, devLogin, FANOUT_EMULATOR_LIMITS, pool, startEmulator, summarizeMs, type Emulator, type PlatformBenchContext } from './platform-phases.js';
import { cpuSample, round2 } from './proc.js';
import { envInt } from './shared.js';

export const VOICE_CONFIG = {
  trials: envInt('BENCH_VOICE_TRIALS', 30),
  gapMs: envInt('BENCH_VOICE_GAP_MS', 600),
  members: envInt('BENCH_VOICE_MEMBERS', 25),
  talkSeconds: envInt('BENCH_VOICE_TALK_S', 5),
};

/** Issue 29's targets. */
export const VOICE_TARGETS = { latencyP50Ms: 60, latencyP99Ms: 120, cpuPerStreamPct: 2 };

const VOICE_LIMITS = { ...FANOUT_EMULATOR_LIMITS, http: { ...FANOUT_EMULATOR_LIMITS.http, lobbyJoin: { count: 100_000, windowMs: 60_000 } } };

interface Member {
  readonly name: string;
  readonly token: string;
  readonly voice: ClientVoice;
}

const silentLogger = createClientLogger({ build: 'release', sink: () => undefined });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function members(emulator: Emulator, count: number): Promise<Member[]> {
  const names = Array.from({ length: count }, (_, i) => `voice_member_${i}`);
  await pool(names, 4, (name) => admin(emulator, 'POST', '/_emulator/users', { username: name }));
  return pool(names, 4, async (name) => {
    const token = await gameToken(emulator, await devLogin(emulator, name));
    return { name, token, voice: new ClientVoice(() => ({ platformBase: emulator.url, token, timeoutMs: 10_000 }), silentLogger) };
  });
}

async function inLobbyCall(emulator: Emulator, member: Member, secret: string): Promise<Call> {
  const response = await fetch(`${emulator.url}/api/v10/lobbies`, { method: 'PUT', headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ secret }) });
  if (!response.ok) throw new Error(`${member.name}: lobby join ${response.status}`);
  const { id } = (await response.json()) as { id: string };
  const call = member.voice.startCall(id);
  if (!(await call.waitConnected(15_000))) throw new Error(`${member.name}: the call did not connect (status ${call.getStatus()})`);
  return call;
}

function loud(samples: Int16Array): boolean {
  for (const sample of samples) if (sample > 1000 || sample < -1000) return true;
  return false;
}

/** Tone onset at A's input to onset at B's output, trial by trial. */
async function latency(emulator: Emulator, a: Member, b: Member): Promise<Record<string, unknown>> {
  await inLobbyCall(emulator, a, 'voice-pair');
  const callB = await inLobbyCall(emulator, b, 'voice-pair');
  const samples: number[] = [];
  let pending: ((at: number) => void) | undefined;
  const off = b.voice.output.onAudio((frame) => {
    if (pending !== undefined && loud(frame)) pending(performance.now());
  });
  let missed = 0;
  for (let trial = 0; trial < VOICE_CONFIG.trials; trial += 1) {
    const heard = new Promise<number | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), 2000);
      pending = (at) => {
        clearTimeout(timer);
        pending = undefined;
        resolve(at);
      };
    });
    const t0 = performance.now();
    a.voice.input.playTone(440, 200);
    const at = await heard;
    if (at === undefined) missed += 1;
    else samples.push(at - t0);
    // A random part of a frame more: the onset lands anywhere in A's 20 ms frame, as a voice does.
    await sleep(VOICE_CONFIG.gapMs + Math.random() * 20);
  }
  off();
  const stats = Object.values(callB.receiveStats())[0];
  await a.voice.endCalls();
  await b.voice.endCalls();
  return { mouthToEar: summarizeMs(samples), trialsMs: samples.map(round2), missed, receiver: stats };
}

/** One member speaks to the other members of a big call. */
async function fanOut(emulator: Emulator, all: readonly Member[]): Promise<Record<string, unknown>> {
  const calls = await pool(all, 4, (member) => inLobbyCall(emulator, member, 'voice-fanout'));
  const [speaker, ...listeners] = all;
  if (speaker === undefined) throw new Error('no members');
  const received = listeners.map(() => 0);
  const offs = listeners.map((member, i) => member.voice.output.onAudio((frame) => {
    if (loud(frame)) received[i] = (received[i] as number) + 1;
  }));
  await sleep(500);
  const emulatorBefore = cpuSample(emulator.server.pid).ms;
  const benchBefore = process.cpuUsage();
  const t0 = performance.now();
  speaker.voice.input.playTone(440, VOICE_CONFIG.talkSeconds * 1000);
  await sleep(VOICE_CONFIG.talkSeconds * 1000 + 300);
  const wallMs = performance.now() - t0;
  const emulatorMs = cpuSample(emulator.server.pid).ms - emulatorBefore;
  const bench = process.cpuUsage(benchBefore);
  const benchMs = (bench.user + bench.system) / 1000;
  for (const off of offs) off();
  const framesSent = VOICE_CONFIG.talkSeconds * 50;
  const streams = listeners.length;
  const concealed = calls.slice(1).map((call) => Object.values(call.receiveStats()).reduce((n, stats) => n + stats.concealed, 0));
  await pool(all, 8, (member) => member.voice.close());
  return {
    members: all.length,
    relayedStreams: streams,
    framesSentPerStream: framesSent,
    framesPlayedPerListener: { min: Math.min(...received), max: Math.max(...received) },
    concealedPerListener: { min: Math.min(...concealed), max: Math.max(...concealed) },
    emulatorCpuPerRelayedStreamPct: round2((emulatorMs / wallMs / streams) * 100),
    sdkCpuPerParticipantPct: round2((benchMs / wallMs / all.length) * 100),
    wallMs: round2(wallMs),
    allConnected: calls.every((call) => call.getStatus() === CallStatus.Connected || call.getStatus() === CallStatus.Disconnected),
  };
}

export async function voicePhase(ctx: PlatformBenchContext): Promise<Record<string, unknown>> {
  ctx.progress('voice: starting an emulator');
  const emulator = await startEmulator(ctx, 'voice-emulator', VOICE_LIMITS);
  try {
    const all = await members(emulator, Math.max(2, VOICE_CONFIG.members));
    ctx.progress(`voice: latency, ${VOICE_CONFIG.trials} trials`);
    const pair = await latency(emulator, all[0] as Member, all[1] as Member);
    ctx.progress(`voice: a call of ${all.length}, one speaking for ${VOICE_CONFIG.talkSeconds} s`);
    const fan = await fanOut(emulator, all);
    const p = (pair.mouthToEar as { p50Ms: number; p99Ms: number } | null) ?? { p50Ms: Number.NaN, p99Ms: Number.NaN };
    return {
      setup: `emulator: ${emulator.how}, own process (its voice server: WebSocket /voice); SDK voice engines (rpc/client/client-voice.ts) in the bench process, raw 16-bit PCM, 48 kHz mono, 20 ms frames`,
      config: VOICE_CONFIG,
      targets: VOICE_TARGETS,
      latency: pair,
      fanOut: fan,
      pass: {
        latencyP50: p.p50Ms <= VOICE_TARGETS.latencyP50Ms,
        latencyP99: p.p99Ms <= VOICE_TARGETS.latencyP99Ms,
        cpuPerStream: (fan.emulatorCpuPerRelayedStreamPct as number) <= VOICE_TARGETS.cpuPerStreamPct && (fan.sdkCpuPerParticipantPct as number) <= VOICE_TARGETS.cpuPerStreamPct,
      },
    };
  } finally {
    await emulator.server.stop();
  }
}
