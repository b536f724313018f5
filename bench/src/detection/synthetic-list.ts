/**
 * A synthetic `GET /applications/detectable` list with the real one's shape and size (~14.8 MB):
 * thousands of applications with the fields the real list carries beside `executables` (which
 * the scanners parse but do not use), several executables each for win32, linux and darwin,
 * names with folders, a few `>` names, a few entries needing arguments, launchers, and the
 * basenames many Windows games share (`game.exe`, `launcher.exe`) under folder names. The same
 * seed gives the same list; the fixture applications are planted at spread positions.
 */
import type { DetectableApplication, DetectableExecutable, DetectableOs } from '../../../platform/src/wire/index.js';
import { SeededRandom } from '../../../main/src/tools/fuzz/seeded-random.js';

/** The real list's size when the issue was written. */
export const REAL_LIST_BYTES = 14_800_000;

const SYLLABLES = ['ar', 'ka', 'zen', 'tor', 'mi', 'lo', 'vex', 'dra', 'qui', 'sol', 'nor', 'bel', 'fy', 'gar', 'ost', 'pel', 'rin', 'tu', 'xel', 'yo'];
const SHARED_BASENAMES = ['game.exe', 'launcher.exe', 'client.exe', 'start.exe', 'main.exe', 'play.exe', 'shipping.exe'];
const THEMES = ['Action', 'Adventure', 'Puzzle', 'Strategy', 'Shooter', 'Racing', 'Simulation', 'Sports', 'Role-playing', 'Indie'];

function word(random: SeededRandom): string {
  let text = '';
  for (let i = random.int(2, 4); i > 0; i--) text += random.pick(SYLLABLES);
  return text;
}

function hex(random: SeededRandom, length: number): string {
  let text = '';
  while (text.length < length) text += random.next().toString(16).padStart(8, '0');
  return text.slice(0, length);
}

function snowflake(random: SeededRandom): string {
  return `${random.int(100_000_000, 1_499_999_999)}${String(random.int(0, 999_999_999)).padStart(9, '0')}`;
}

/** One executable; `stem` is unique to the application, so a name never matches another's by chance. */
function executable(random: SeededRandom, os: DetectableOs, stem: string): DetectableExecutable {
  let name: string;
  if (os === 'win32') {
    const roll = random.float();
    if (roll < 0.15) name = `${stem}/${random.pick(SHARED_BASENAMES)}`;
    else if (roll < 0.3) name = `${stem}/bin/win64/${stem}.exe`;
    else if (roll < 0.34) name = `>${stem}_shipping.exe`;
    else name = `${stem}${random.pick(['', '64', '_dx11', '-win64-shipping'])}.exe`;
  } else if (os === 'linux') {
    name = random.chance(0.2) ? `${stem}/bin/${stem}.x86_64` : `${stem}${random.pick(['', '_linux', '.x86_64', '.sh'])}`;
  } else {
    name = `${stem}.app/contents/macos/${stem}`;
  }
  const entry: DetectableExecutable = { os, name, is_launcher: random.chance(0.04) };
  return random.chance(0.03) ? { ...entry, arguments: `-game ${stem}` } : entry;
}

function application(random: SeededRandom, n: number): DetectableApplication & Record<string, unknown> {
  const stem = `${word(random)}${n}`;
  const name = `${word(random)} ${word(random)} ${n}`.replace(/\b\w/g, (c) => c.toUpperCase());
  const executables: DetectableExecutable[] = [];
  for (let i = random.int(1, 5); i > 0; i--) {
    const os = random.weighted<DetectableOs>([
      ['win32', 7],
      ['linux', 1.5],
      ['darwin', 1.5],
    ]);
    executables.push(executable(random, os, i === 1 ? stem : `${stem}${word(random)}`));
  }
  return {
    aliases: random.chance(0.3) ? [`${name} Edition`] : [],
    cover_image_hash: hex(random, 32),
    description: '',
    executables,
    flags: 0,
    hook: true,
    icon_hash: hex(random, 32),
    id: snowflake(random),
    name,
    overlay: random.chance(0.5),
    overlay_compatibility_hook: false,
    overlay_methods: random.chance(0.2) ? 1 : null,
    overlay_warn: random.chance(0.05),
    splash: random.chance(0.4) ? hex(random, 32) : null,
    summary: Array.from({ length: random.int(8, 40) }, () => word(random)).join(' '),
    themes: [random.pick(THEMES), random.pick(THEMES)],
    type: random.chance(0.9) ? 1 : null,
  };
}

export interface SyntheticList {
  readonly applications: readonly DetectableApplication[];
  readonly json: string;
  /** Generated applications with a plain linux executable (no arguments, not a launcher): games the bench runs. */
  readonly runnable: readonly { readonly id: string; readonly executable: string }[];
}

/** Generated applications until the JSON reaches `targetBytes`, with `planted` spread through them. */
export function syntheticList(seed: number, planted: readonly DetectableApplication[], targetBytes = REAL_LIST_BYTES): SyntheticList {
  const random = new SeededRandom(seed);
  const applications: DetectableApplication[] = [];
  let bytes = planted.reduce((sum, app) => sum + JSON.stringify(app).length + 1, 2);
  while (bytes < targetBytes) {
    const app = application(random, applications.length);
    bytes += JSON.stringify(app).length + 1;
    applications.push(app);
  }
  const step = Math.max(1, Math.floor(applications.length / (planted.length + 1)));
  planted.forEach((app, i) => applications.splice((i + 1) * step + i, 0, app));
  const runnable = applications.flatMap((app) => {
    const found = app.executables.find((e) => e.os === 'linux' && !e.is_launcher && e.arguments === undefined && !e.name.includes('/') && !e.name.startsWith('>'));
    return found === undefined || planted.includes(app) ? [] : [{ id: app.id, executable: found.name }];
  });
  return { applications, json: JSON.stringify(applications), runnable };
}
