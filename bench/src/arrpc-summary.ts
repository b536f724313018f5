/**
 * The arrpc phase's figures: medians over rounds, per-round ratios Companion / arRPC, and the
 * readable table printed on stderr.
 */
export type Peer = 'companion' | 'arrpc';

export interface Figures {
  /** From the spawn to the first connect() its socket accepted. */
  readonly boundMs: number;
  readonly startRssMiB: number;
  readonly handshakeP50Us: number;
  readonly handshakeP99Us: number;
  readonly rttP50Us: number;
  readonly rttP99Us: number;
  readonly throughput1: number;
  readonly throughput100: number;
  readonly cpuUsPerRequest100: number;
  readonly throughputPipelined: number;
  readonly cpuUsPerRequestPipelined: number;
  readonly peakRssMiB: number;
  /** Over the idle window at the end of a round (footprint.ts); NaN in rounds without one. */
  readonly idleWakeups: number;
  readonly idleCpuMs: number;
  readonly idleRssMiB: number;
}

export interface FigureSpec {
  readonly key: keyof Figures;
  readonly label: string;
  readonly unit: string;
  readonly better: 'lower' | 'higher';
  /** Ahead means a ratio of at most 1 (tail latency: no worse than arRPC) rather than strictly better. */
  readonly atMost?: boolean;
  /** The target is this ratio or better (e.g. 1.1: at least 1.1x arRPC's throughput) rather than 1. */
  readonly targetRatio?: number;
  /** The target is Companion's own figure at most this (e.g. the socket bound within 200 ms), whatever arRPC's. */
  readonly targetMax?: number;
  /** Shown, but not one of the figures Companion must be ahead on. */
  readonly extra?: boolean;
}

/** The targets are issue 27 §4's: a companion runs all day, so what users feel is its idle cost. */
export const FIGURES: readonly FigureSpec[] = [
  { key: 'boundMs', label: 'socket accepts, from spawn', unit: 'ms', better: 'lower', targetMax: 200 },
  { key: 'handshakeP50Us', label: 'handshake to READY p50', unit: 'µs', better: 'lower', atMost: true },
  { key: 'rttP50Us', label: 'SET_ACTIVITY round trip p50', unit: 'µs', better: 'lower' },
  { key: 'rttP99Us', label: 'SET_ACTIVITY round trip p99', unit: 'µs', better: 'lower', atMost: true },
  { key: 'throughput1', label: 'throughput, 1 client', unit: 'req/s', better: 'higher' },
  { key: 'throughput100', label: 'throughput, 100 clients', unit: 'req/s', better: 'higher', targetRatio: 1.1 },
  { key: 'cpuUsPerRequest100', label: 'server CPU per request, 100 clients', unit: 'µs', better: 'lower', targetRatio: 0.9 },
  { key: 'throughputPipelined', label: 'throughput, pipelined', unit: 'req/s', better: 'higher' },
  { key: 'cpuUsPerRequestPipelined', label: 'server CPU per request, pipelined', unit: 'µs', better: 'lower', extra: true },
  { key: 'startRssMiB', label: 'start RSS', unit: 'MiB', better: 'lower', atMost: true },
  { key: 'peakRssMiB', label: 'peak RSS', unit: 'MiB', better: 'lower' },
  { key: 'idleRssMiB', label: 'idle RSS (end of the idle window)', unit: 'MiB', better: 'lower', atMost: true },
  { key: 'idleWakeups', label: 'idle wake-ups (context switches)', unit: '', better: 'lower', atMost: true },
  { key: 'idleCpuMs', label: 'idle CPU', unit: 'ms', better: 'lower', extra: true },
  { key: 'handshakeP99Us', label: 'handshake to READY p99', unit: 'µs', better: 'lower', extra: true },
];

/** Whether the summary meets the figure's target: its own maximum, else the ratio against arRPC. */
function meetsTarget(spec: FigureSpec, companion: number | null, ratio: number | null): boolean {
  if (spec.targetMax !== undefined) return companion !== null && companion <= spec.targetMax;
  if (ratio === null) return false;
  if (spec.targetRatio !== undefined) return spec.better === 'lower' ? ratio <= spec.targetRatio : ratio >= spec.targetRatio;
  return spec.better === 'lower' ? (spec.atMost === true ? ratio <= 1 : ratio < 1) : ratio > 1;
}

export interface FigureSummary {
  readonly better: 'lower' | 'higher';
  readonly companion: number | null;
  readonly arrpc: number | null;
  /** Median over rounds of Companion / arRPC. */
  readonly ratio: number | null;
  readonly ratioMin: number | null;
  readonly ratioMax: number | null;
  readonly ahead: boolean;
}

function median(values: readonly number[]): number | null {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const round = (value: number | null, digits: number): number | null => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

export function summarizeRounds(rounds: readonly Record<Peer, Figures>[]): Partial<Record<keyof Figures, FigureSummary>> {
  const out: Partial<Record<keyof Figures, FigureSummary>> = {};
  for (const spec of FIGURES) {
    const ratios = rounds.map((r) => r.companion[spec.key] / r.arrpc[spec.key]).filter(Number.isFinite);
    const ratio = median(ratios);
    const companion = median(rounds.map((r) => r.companion[spec.key]));
    out[spec.key] = {
      better: spec.better,
      companion: round(companion, 2),
      arrpc: round(median(rounds.map((r) => r.arrpc[spec.key])), 2),
      ratio: round(ratio, 3),
      ratioMin: ratios.length > 0 ? round(Math.min(...ratios), 3) : null,
      ratioMax: ratios.length > 0 ? round(Math.max(...ratios), 3) : null,
      ahead: meetsTarget(spec, companion, ratio),
    };
  }
  return out;
}

function show(value: number | null, unit: string): string {
  if (value === null) return '-';
  if (unit === 'req/s') return `${(value / 1000).toFixed(1)}k/s`;
  if (unit === '') return value.toFixed(0);
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${unit}`;
}

function targetNote(spec: FigureSpec): string {
  if (spec.extra === true) return ' (not a target)';
  if (spec.targetMax !== undefined) return ` (at most ${spec.targetMax} ${spec.unit})`;
  if (spec.targetRatio !== undefined) return ` (ratio ${spec.better === 'lower' ? 'at most' : 'at least'} ${spec.targetRatio})`;
  return spec.atMost === true ? ' (at most arRPC)' : '';
}

/** The table on stderr: one line per figure, the direction that favours Companion beside it. */
export function arrpcTable(summary: Partial<Record<keyof Figures, FigureSummary>>, rounds: number, pipeline: string): string {
  const header = ['figure', 'better', 'arRPC', 'Companion', 'ratio C/a', 'rounds min-max', 'target met'];
  const rows = FIGURES.map((spec) => {
    const s = summary[spec.key];
    const label = spec.label.replace('pipelined', `${pipeline} in flight`);
    if (s === undefined) return [label, spec.better, '-', '-', '-', '-', '-'];
    return [
      label,
      `${spec.better} is better`,
      show(s.arrpc, spec.unit),
      show(s.companion, spec.unit),
      s.ratio === null ? '-' : s.ratio.toFixed(2),
      s.ratioMin === null || s.ratioMax === null ? '-' : `${s.ratioMin.toFixed(2)}-${s.ratioMax.toFixed(2)}`,
      s.companion === null ? '- (not measured)' : (s.ahead ? 'yes' : 'NO') + targetNote(spec),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd();
  const title = `arRPC comparison: medians of ${rounds} rounds, fresh servers each round (ratio: Companion / arRPC, median of the per-round ratios)`;
  return `\n${title}\n${line(header)}\n${rows.map(line).join('\n')}\n\n`;
}
