import type { DoctorReport } from './doctor-report.js';

/** The report for a terminal: sections of indented lines, findings last. */
export function formatDoctorReport(report: DoctorReport): string {
  const lines: string[] = ['Companion doctor', ''];
  lines.push('Environment');
  for (const [name, value] of Object.entries(report.environment.variables)) lines.push(`  ${name.padEnd(16)} ${value ?? '(not set)'}`);
  lines.push(`  Games look first in ${report.environment.prefix.dir} (${report.environment.prefix.source === 'default' ? 'no variable set' : `from ${report.environment.prefix.source}`})`);
  lines.push('');

  lines.push('Companion');
  const companion = report.companion;
  if (companion.state === 'running') {
    lines.push(`  running (pid ${companion.pid}${companion.version === null ? '' : `, version ${companion.version}`}), runtime file ${companion.runtimeFile}`);
    lines.push('  listening on:');
    for (const listener of companion.listeners) {
      const why = report.directories.find((d) => d.kind === listener.kind)?.why;
      lines.push(`    ${listener.path}${why === undefined ? '' : `  (${why})`}`);
    }
  } else if (companion.state === 'stale') {
    lines.push(`  not running (a runtime file is left from a host that is gone: ${companion.runtimeFile})`);
  } else {
    lines.push(`  not running (no ${companion.runtimeFile})`);
  }
  if (companion.state !== 'running') {
    lines.push('  started here, it would listen in:');
    for (const dir of report.directories) lines.push(`    ${dir.dir}  (${dir.why})`);
  }
  lines.push('');

  lines.push('Sockets (discord-ipc-N in those directories)');
  if (report.sockets.length === 0) lines.push('  none');
  let dir: string | undefined;
  for (const slot of report.sockets) {
    if (slot.dir !== dir) {
      dir = slot.dir;
      lines.push(`  ${dir}`);
    }
    const what = slot.state === 'answers' ? `answers (${slot.holder === 'companion' ? 'Companion' : 'another server'})` : SLOT_WORDS[slot.state];
    lines.push(`    discord-ipc-${slot.index}  ${what}`);
  }
  lines.push('');

  lines.push('Client libraries (the socket each would pick here)');
  for (const client of report.clients) {
    const outcome = client.outcome;
    let line: string;
    if (outcome.kind === 'connects') line = `connects to ${outcome.path} (${client.reaches === 'companion' ? 'Companion' : 'another server'})`;
    else if (outcome.kind === 'fails') line = `${outcome.path === null ? 'finds nothing' : `picks ${outcome.path} and fails`}: ${outcome.reason}`;
    else line = outcome.reason;
    lines.push(`  ${client.name}`);
    lines.push(`    ${line}`);
  }
  lines.push('');

  if (report.flatpak !== null) {
    lines.push(`Flatpak apps${report.flatpak.flatpakCommand ? '' : " (no flatpak command: from ~/.var/app and the installations' folders)"}`);
    if (report.flatpak.apps.length === 0) lines.push('  none found');
    for (const app of report.flatpak.apps) {
      lines.push(`  ${app.id} (${app.foundIn.join(', ')}): ${app.detail}`);
      for (const grant of app.grants) lines.push(`    ${grant.entry}  (${grant.source})`);
      if (app.fix !== null) lines.push(`    fix: ${app.fix}`);
    }
    lines.push('');
  }

  if (report.wine !== undefined && report.wine.sessions.length > 0) {
    lines.push('Windows games under Wine or Proton');
    for (const session of report.wine.sessions) lines.push(`  ${session.games.join(', ')} in ${session.prefix}: ${session.bridge ? 'the bridge runs beside it' : 'no bridge'}`);
    lines.push('');
  }

  lines.push('Findings');
  if (report.findings.length === 0) lines.push('  nothing to fix');
  for (const finding of report.findings) lines.push(`  - ${finding}`);
  return `${lines.join('\n')}\n`;
}

const SLOT_WORDS = {
  refuses: 'stale (a socket file nobody listens on)',
  'no-access': "another user's socket",
  directory: 'a directory (not a socket)',
  file: 'a file (not a socket)',
} as const;
