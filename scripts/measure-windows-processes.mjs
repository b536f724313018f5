#!/usr/bin/env node
// What listing Windows' processes costs per scan, each way of doing it, under Wine (issue 30 §2;
// docs/performance.md, "Game detection", "On Windows"). In a fresh Wine prefix (Windows 10)
// with FILLERS idle programs running besides Wine's own, each command is run ROUNDS times one
// after another; for each: the wall time (median, min-max), the CPU time of the command's
// process (user + system, from its shell's cutime/cstime, 10 ms ticks) plus the wineserver's
// over the rounds, per run; and the size of what it printed (0: the command is a stub in this
// Wine). The commands: Companion's process-list script on cscript.exe, in full and as a steady
// scan (every process known), `wmic` with the columns Wine has, `tasklist` and PowerShell.
//
//   node scripts/measure-windows-processes.mjs [--rounds N] [--fillers N]
//
// Needs wine, wineserver and x86_64-w64-mingw32-gcc (main/test/support/wine/wine-tools.ts) and
// a build (`npx tsc -b`: the script's text is read from out/).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const ROUNDS = option('--rounds', 10);
const FILLERS = option('--fillers', 100);
const root = fileURLToPath(new URL('..', import.meta.url));

const dir = mkdtempSync(path.join(os.tmpdir(), 'companion-measure-wine-'));
const prefix = path.join(dir, 'prefix');
const env = { PATH: process.env.PATH, HOME: process.env.HOME, WINEPREFIX: prefix, WINEDEBUG: '-all' };
const windowsPath = (linuxPath) => `Z:${path.resolve(linuxPath).replace(/\//g, '\\')}`;
const run = (command, commandArgs, extra = {}) => {
  const result = spawnSync(command, commandArgs, { env: { ...env, ...extra }, encoding: 'latin1', timeout: 180_000 });
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')}: ${result.stderr || result.error?.message}`);
  return result.stdout;
};

/** utime + stime of the prefix's wineserver, ms. */
function wineserverCpu() {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('wineserver')) continue;
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`WINEPREFIX=${prefix}`)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // gone meanwhile, or another user's
    }
  }
  return 0;
}

/** One run of `wine COMMAND...` through a shell that reports its children's CPU: [wall ms, cpu ms, output bytes]. */
function once(command) {
  const quoted = command.map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(' ');
  const script = `wine ${quoted} > "$OUT" 2>/dev/null; cat /proc/$$/stat`;
  const out = path.join(dir, 'out.txt');
  const start = performance.now();
  const stat = run('sh', ['-c', script], { OUT: out });
  const wall = performance.now() - start;
  const fields = stat.split(') ')[1].split(' ');
  return [wall, (Number(fields[13]) + Number(fields[14])) * 10, readFileSync(out).length];
}

function measure(name, command) {
  once(command); // warm: the DLLs in the page cache
  const walls = [];
  let cpu = 0;
  let bytes = 0;
  const server = wineserverCpu();
  for (let round = 0; round < ROUNDS; round++) {
    const [wall, used, size] = once(command);
    walls.push(wall);
    cpu += used;
    bytes = size;
  }
  const serverPerRun = (wineserverCpu() - server) / ROUNDS;
  walls.sort((a, b) => a - b);
  const median = walls[Math.floor(walls.length / 2)];
  console.log(
    `| ${name} | ${median.toFixed(0)} (${walls[0].toFixed(0)}-${walls.at(-1).toFixed(0)}) | ${(cpu / ROUNDS).toFixed(0)} + ${serverPerRun.toFixed(0)} | ${bytes} |`,
  );
}

const fillers = [];
try {
  run('wine', ['wineboot', '--init'], { WINEDLLOVERRIDES: 'mscoree,mshtml=' });
  run('wine', ['winecfg', '/v', 'win10']);
  const idle = path.join(dir, 'idle.exe');
  run('x86_64-w64-mingw32-gcc', ['-O2', '-static', '-o', idle, path.join(root, 'main/test/windows/detection-fixtures/idle-game.c')]);
  for (let i = 0; i < FILLERS; i++) fillers.push(spawn('wine', [idle], { env, stdio: ['pipe', 'ignore', 'ignore'] }));
  await new Promise((resolve) => setTimeout(resolve, 5000 + FILLERS * 100));

  const { PROCESS_LIST_SCRIPT } = await import(path.join(root, 'out/main/src/host/detection/windows-process-list-script.js'));
  const { parseProcessList, knownProcessesFile } = await import(path.join(root, 'out/main/src/host/detection/windows-process-list.js'));
  const script = path.join(dir, 'process-list.vbs');
  writeFileSync(script, PROCESS_LIST_SCRIPT.replaceAll('\n', '\r\n'));
  const full = parseProcessList(run('wine', ['cscript', '//NoLogo', '//B', windowsPath(script)]));
  const known = path.join(dir, 'known.txt');
  writeFileSync(known, knownProcessesFile(new Map(full.fresh.map((row) => [row.pid, row.stamp]))));
  console.log(`${full.fresh.length} processes running in the prefix (${FILLERS} fillers); ${ROUNDS} runs each; ${run('wine', ['--version']).trim()}`);
  console.log('| command | wall ms, median (min-max) | CPU ms per run: its process + wineserver | output bytes |');
  console.log('| --- | --- | --- | --- |');
  measure('cscript process-list.vbs (every process in full: a first scan)', ['cscript', '//NoLogo', '//B', windowsPath(script)]);
  measure('cscript process-list.vbs known.txt (a steady scan: nothing new)', ['cscript', '//NoLogo', '//B', windowsPath(script), windowsPath(known)]);
  measure('wmic process get Caption,CommandLine,ProcessId', ['wmic', 'process', 'get', 'Caption,CommandLine,ProcessId']);
  measure('wmic process get ProcessId', ['wmic', 'process', 'get', 'ProcessId']);
  measure('tasklist /fo csv', ['tasklist', '/fo', 'csv']);
  measure('powershell -NoProfile -Command Get-CimInstance Win32_Process', ['powershell', '-NoProfile', '-Command', 'Get-CimInstance Win32_Process']);
  measure('cmd /c exit (starting a program, for scale)', ['cmd', '/c', 'exit']);
} finally {
  for (const filler of fillers) filler.kill('SIGKILL');
  spawnSync('wineserver', ['-k'], { env });
  spawnSync('wineserver', ['-w'], { env, timeout: 30_000 });
  rmSync(dir, { recursive: true, force: true });
}
