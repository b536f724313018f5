#!/usr/bin/env node
// Opus (a WebAssembly build from the npm registry) against raw 16-bit PCM for the voice path's
// 20 ms frames (48 kHz mono): bytes per frame and CPU per stream (encode + decode of one
// second of audio, as % of one core). Not a dependency of Companion: install the package
// outside the checkout and name its folder, e.g.
//   npm install --no-save --prefix /tmp/vc-deps opusscript@0.1.1
//   OPUS_MODULE=/tmp/vc-deps/node_modules/opusscript node bench/opus-vs-pcm.mjs
// docs/architecture.md ("Voice") has the figures and the choice.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const SAMPLE_RATE = 48_000;
const FRAME = 960;
const SECONDS = Number(process.env.OPUS_SECONDS ?? 20);
const modulePath = process.env.OPUS_MODULE;
if (modulePath === undefined) {
  console.error('set OPUS_MODULE to the opusscript folder (see the comment at the top)');
  process.exit(2);
}
const OpusScript = createRequire(import.meta.url)(modulePath);

/** A 440 Hz tone, and a speech-like signal: a 150 Hz buzz with harmonics, amplitude-modulated at 4 Hz, plus noise. */
function signals(frames) {
  const tone = new Int16Array(frames * FRAME);
  const speech = new Int16Array(frames * FRAME);
  let seed = 1;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  for (let i = 0; i < tone.length; i += 1) {
    const t = i / SAMPLE_RATE;
    tone[i] = Math.round(Math.sin(2 * Math.PI * 440 * t) * 0.3 * 32767);
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t);
    let buzz = 0;
    for (let h = 1; h <= 8; h += 1) buzz += Math.sin(2 * Math.PI * 150 * h * t) / h;
    speech[i] = Math.round((buzz * 0.15 * envelope + noise() * 0.02) * 32767);
  }
  return { tone, speech };
}

function measure(name, samples, encode, decode) {
  const frames = samples.length / FRAME;
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let f = 0; f < frames; f += 1) {
    const frame = samples.subarray(f * FRAME, (f + 1) * FRAME);
    const packet = encode(frame);
    bytes += packet.byteLength;
    decode(packet);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const audioMs = frames * 20;
  return { codec: name, frames, bytesPerFrame: Math.round(bytes / frames), kbitPerS: Math.round((bytes * 8) / (audioMs / 1000) / 100) / 10, cpuPerStreamPct: Math.round((((cpu.user + cpu.system) / 1000) / audioMs) * 100 * 1000) / 1000, wallMs: Math.round(wallMs) };
}

const { tone, speech } = signals(SECONDS * 50);
const results = [];
for (const [label, samples] of [['440 Hz tone', tone], ['speech-like', speech]]) {
  const pcmOut = new Int16Array(FRAME);
  results.push({ signal: label, ...measure('pcm16', samples, (frame) => new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength), (packet) => new Uint8Array(pcmOut.buffer).set(packet)) });
  const encoder = new OpusScript(SAMPLE_RATE, 1, OpusScript.Application.VOIP);
  const decoder = new OpusScript(SAMPLE_RATE, 1, OpusScript.Application.VOIP);
  results.push({ signal: label, ...measure('opus (opusscript, wasm, VOIP, default bitrate)', samples, (frame) => encoder.encode(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength), FRAME), (packet) => decoder.decode(packet)) });
  encoder.delete();
  decoder.delete();
}
console.log(JSON.stringify({ node: process.version, seconds: SECONDS, results }, null, 2));
