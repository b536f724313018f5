/**
 * One scanner in a process of its own, for the detection phase: Companion's GameDetector on the
 * Linux process source, or arRPC's process scanner (its `src/process/` folder, copied by the
 * phase into a temp folder with the list as its `detectable.json`). Loads the list, scans once,
 * then `scans` more times `pauseMs` apart, and prints one JSON line: the CPU of loading, of the
 * first scan and of each later scan (`process.cpuUsage()`, every thread of the process, so
 * arRPC's reads on libuv's pool count too), and the applications detected.
 *
 *   node scanner-child.js companion <list.json> <scans> <pauseMs>
 *   node scanner-child.js arrpc <copied src/process dir> <scans> <pauseMs>
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DetectableApplication } from '../../../platform/src/wire/index.js';
import { GameDetector } from '../../../main/src/host/detection/game-detector.js';
import { LinuxProcessSource } from '../../../main/src/host/detection/process-source-linux.js';

/** What a scanner offers the harness: a scan, and what it detects after it. */
interface Scanner {
  scan(): Promise<void>;
  detected(): string[];
}

export interface ScannerResult {
  readonly loadCpuMs: number;
  readonly firstScanCpuMs: number;
  readonly firstScanWallMs: number;
  readonly steadyCpuMs: readonly number[];
  readonly steadyWallMs: readonly number[];
  readonly detectedFirst: readonly string[];
  readonly detectedLast: readonly string[];
  readonly rssMiB: number;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function companionScanner(listPath: string): Scanner {
  const applications = JSON.parse(readFileSync(listPath, 'utf8')) as DetectableApplication[];
  const detector = new GameDetector({ source: new LinuxProcessSource(), os: 'linux' });
  detector.setList(applications);
  return { scan: () => detector.scanOnce(), detected: () => detector.running().map((game) => game.applicationId) };
}

interface ArrpcMessage {
  readonly args?: { readonly activity?: { readonly application_id?: string } | null };
}

/**
 * arRPC's ProcessServer without its constructor (which scans at once and arms a 5 s interval it
 * never clears): its `scan` method called on an object of its class, with a `handlers.message`
 * that records the activities it sets (it sets every detected game's again at every scan).
 */
async function arrpcScanner(dir: string): Promise<Scanner> {
  const module = (await import(pathToFileURL(path.join(dir, 'index.js')).href)) as { default: { prototype: object } };
  let current: string[] = [];
  const server = Object.create(module.default.prototype) as { handlers: unknown; scan: () => Promise<void> };
  server.handlers = {
    message: (_socket: unknown, message: ArrpcMessage) => {
      const id = message.args?.activity?.application_id;
      if (id !== undefined) current.push(id);
    },
  };
  return {
    scan: async () => {
      current = [];
      await server.scan();
    },
    detected: () => [...new Set(current)],
  };
}

async function main(): Promise<void> {
  const [mode, source, scansText, pauseText] = process.argv.slice(2);
  if (source === undefined || (mode !== 'companion' && mode !== 'arrpc')) throw new Error('usage: scanner-child.js companion|arrpc <list or dir> <scans> <pauseMs>');
  const scans = Number(scansText ?? 10);
  const pauseMs = Number(pauseText ?? 100);
  // arRPC logs every game it finds; the harness's stdout carries the result only.
  console.log = () => undefined;
  let t = process.cpuUsage();
  const scanner = mode === 'companion' ? companionScanner(source) : await arrpcScanner(source);
  const loadCpuMs = cpuMs(t);
  let wall = performance.now();
  t = process.cpuUsage();
  await scanner.scan();
  const firstScanCpuMs = cpuMs(t);
  const firstScanWallMs = performance.now() - wall;
  const detectedFirst = scanner.detected();
  const steadyCpuMs: number[] = [];
  const steadyWallMs: number[] = [];
  for (let i = 0; i < scans; i++) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    wall = performance.now();
    t = process.cpuUsage();
    await scanner.scan();
    steadyCpuMs.push(cpuMs(t));
    steadyWallMs.push(performance.now() - wall);
  }
  const result: ScannerResult = {
    loadCpuMs,
    firstScanCpuMs,
    firstScanWallMs,
    steadyCpuMs,
    steadyWallMs,
    detectedFirst,
    detectedLast: scanner.detected(),
    rssMiB: process.memoryUsage.rss() / 1048576,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`scanner-child: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
