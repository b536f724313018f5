/**
 * The Windows test game (main/test/windows/fixtures/pipe-game.c): built once per test file,
 * run in a Wine session, its stdout read back as steps. It connects to the first
 * `\\?\pipe\discord-ipc-N` that opens, as the official C library does, gets READY, sets an
 * activity, and stays connected until its stdin has a line or ends.
 */
import path from 'node:path';
import { REPO_ROOT } from '../cli-process.js';
import { buildWindowsC } from './mingw.js';
import type { WinePrefix } from './wine-prefix.js';
import type { WineProcess } from './wine-process.js';
import type { WineTools } from './wine-tools.js';

export const PIPE_GAME_SOURCE = path.join(REPO_ROOT, 'main/test/windows/fixtures/pipe-game.c');

/** Builds pipe-game.exe into `dir`; its path. */
export function buildPipeGame(dir: string, tools: WineTools): Promise<string> {
  return buildWindowsC([PIPE_GAME_SOURCE], path.join(dir, 'pipe-game.exe'), { gcc: tools.gcc });
}

/** `pipe-game.exe APP_ID STATE` in the session, stdin a pipe (input() ends its connection). */
export function runPipeGame(prefix: WinePrefix, exe: string, appId: string, state: string, files: { stdout: string; stderr: string }): WineProcess {
  return prefix.run(exe, [appId, state], { ...files, stdin: 'pipe' });
}

/** What the game printed: the pipe it opened, READY's and SET_ACTIVITY's answers (parsed), whether it closed, its error. */
export interface PipeGameSteps {
  readonly pipe?: string;
  readonly ready?: unknown;
  readonly activity?: unknown;
  readonly closed: boolean;
  readonly error?: string;
}

export function pipeGameSteps(stdout: string): PipeGameSteps {
  const line = (step: string): string | undefined => new RegExp(`^${step} (.*)$`, 'm').exec(stdout)?.[1];
  const json = (text: string | undefined): unknown => (text === undefined ? undefined : JSON.parse(text));
  const steps = { pipe: line('PIPE'), ready: json(line('READY')), activity: json(line('ACTIVITY')), error: line('ERROR') };
  return { ...Object.fromEntries(Object.entries(steps).filter(([, value]) => value !== undefined)), closed: /^CLOSED$/m.test(stdout) };
}
