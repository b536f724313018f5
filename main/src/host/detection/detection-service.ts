import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { DetectionPatch, DetectionView, RunningProgramView } from '../../../../preload/src/contract.js';
import type { DetectableApplication, DetectableOs } from '../../../../platform/src/wire/index.js';
import type { PresenceRelay } from '../presence/presence-relay.js';
import { DetectedActivities, type DetectedShowing } from './detected-activities.js';
import type { DetectableList } from './detectable-list.js';
import type { ProgramDiagnosis } from '../../diagnostics/doctor/detection-section.js';
import { programDiagnosis, type DetectionDiagnosis } from './detection-diagnosis.js';
import { DetectionHistory, type DetectionEntry } from './detection-history.js';
import { customDetectable, type DetectionSettingsStore } from './detection-settings-store.js';
import type { DetectedGame, GameDetector } from './game-detector.js';

/** A running detected game as the control API lists it (`companion control games`). */
export interface DetectedGameListing {
  readonly detected: true;
  readonly application_id: string;
  readonly application_name: string;
  /** The list's entry that matched (`>` included) and the process's path that did. */
  readonly executable: string;
  readonly path: string;
  readonly pid: number;
  readonly pids: readonly number[];
  readonly started_at: number;
  readonly showing: DetectedShowing;
  readonly custom: boolean;
}

export interface DetectionServiceEvents {
  start: [DetectedGame];
  end: [DetectedGame];
  /** Anything the Settings screen shows changed (a switch, a game added, the list). */
  change: [];
}

export interface DetectionServiceOptions {
  readonly list: DetectableList;
  readonly settings: DetectionSettingsStore;
  /** Null where no process source exists for this OS: the list and settings are kept, nothing is scanned. */
  readonly detector: GameDetector | null;
  /** Why there is no detector, as `companion doctor` says it (default: this OS has no process source). */
  readonly noScannerReason?: string;
  readonly relay: Pick<PresenceRelay, 'activityChanged' | 'live'>;
  /** The OS a custom game's executable is for when it is no `.exe`. */
  readonly os: DetectableOs;
  readonly now?: () => number;
}

/**
 * Game detection in the host: the platform's list (fetched at sign-in, cached) and the player's
 * own games feed the detector; what it finds becomes "Playing <name>" through the relay
 * (DetectedActivities), unless the player switched it off. The scanner runs only while someone
 * is signed in and the global switch is on.
 */
export class DetectionService extends EventEmitter<DetectionServiceEvents> {
  private readonly activities: DetectedActivities;
  private readonly history: DetectionHistory;
  private signedIn = false;
  private customIds = new Set<string>();
  /** Applications the detector matches against: with none, it does not run (nothing would wake the host for nothing). */
  private listed = 0;

  constructor(private readonly options: DetectionServiceOptions) {
    super();
    const { settings } = options;
    this.history = new DetectionHistory(options.now ?? Date.now);
    this.activities = new DetectedActivities({ relay: options.relay, enabled: () => settings.settings.enabled, excluded: (id) => settings.isExcluded(id) });
    options.detector?.on('start', this.onStart).on('end', this.onEnd);
    options.list.on('list', () => this.feedList());
    settings.on('change', this.onSettings);
    this.feedList();
  }

  signIn(): Promise<void> {
    this.signedIn = true;
    this.applyRunning();
    return this.options.list.signIn();
  }

  signOut(): void {
    this.signedIn = false;
    this.options.list.signOut();
    this.applyRunning();
  }

  /** A game's RPC activity changed: its detected activity steps aside or comes back. */
  rpcActivityChanged(applicationId: string): void {
    this.activities.rpcChanged(applicationId);
  }

  /** Running detected games, for the control API. */
  running(): DetectedGameListing[] {
    return (this.options.detector?.running() ?? []).map((game) => ({
      detected: true,
      application_id: game.applicationId,
      application_name: game.name,
      executable: game.executable,
      path: game.path,
      pid: game.pid,
      pids: game.pids,
      started_at: game.startedAt,
      showing: this.activities.showing(game.applicationId),
      custom: this.customIds.has(game.applicationId),
    }));
  }

  view(): DetectionView {
    const { settings } = this.options.settings;
    return {
      enabled: settings.enabled,
      games: this.history.list().map((entry) => this.entryView(entry)),
      excluded: settings.excluded.map((id) => ({ application_id: id, name: this.nameOf(id) ?? 'A game Companion cannot name' })),
      custom: settings.custom.map((game) => ({ ...game })),
      list: this.options.list.status(),
    };
  }

  async update(patch: DetectionPatch): Promise<DetectionView> {
    if (patch.enabled !== undefined) await this.options.settings.setEnabled(patch.enabled);
    if (patch.game !== undefined) await this.options.settings.setExcluded(patch.game.application_id, !patch.game.shown);
    return this.view();
  }

  async addGame(executable: string, name: string): Promise<DetectionView> {
    const os: DetectableOs = executable.toLowerCase().endsWith('.exe') ? 'win32' : this.options.os;
    await this.options.settings.addCustom({ name, executable: path.posix.basename(executable.replaceAll('\\', '/')), os });
    return this.view();
  }

  async removeGame(id: string): Promise<DetectionView> {
    await this.options.settings.removeCustom(id);
    return this.view();
  }

  /** Running programs that are no game Companion knows, one per executable ("Add it"). */
  async runningPrograms(): Promise<RunningProgramView[]> {
    const detector = this.options.detector;
    if (detector === null) return [];
    const seen = new Map<string, RunningProgramView>();
    for (const process of await detector.processes()) {
      const first = process.candidates[0];
      if (first === undefined || detector.explain(process)?.kind === 'detected') continue;
      const executable = path.posix.basename(first.path);
      if (executable === '' || seen.has(executable)) continue;
      seen.set(executable, { pid: process.pid, executable, path: first.path });
    }
    return [...seen.values()].sort((a, b) => a.executable.localeCompare(b.executable));
  }

  /** Every running program with why it is detected or not (`companion doctor`). */
  async diagnose(): Promise<DetectionDiagnosis> {
    const detector = this.options.detector;
    if (detector === null) return { state: 'no-scanner', reason: this.options.noScannerReason ?? 'this host runs no process scanner (game detection scans processes on Linux, Windows and macOS)' };
    const { enabled } = this.options.settings.settings;
    const { source, applications, last_error } = this.options.list.status();
    const programs: ProgramDiagnosis[] = [];
    for (const process of await detector.processes()) {
      const explanation = detector.explain(process);
      if (explanation === null) return { state: 'no-scanner', reason: 'no detectable list yet: the host fetches it when someone signs in' };
      const diagnosis = programDiagnosis(process, explanation, this.options.os);
      if (diagnosis !== null) programs.push(diagnosis);
    }
    return { state: 'explained', enabled, list: { source, applications, last_error }, programs };
  }

  dispose(): void {
    this.options.detector?.stop();
    this.activities.clear();
    this.options.list.dispose();
    this.options.settings.off('change', this.onSettings);
    this.removeAllListeners();
  }

  private entryView(entry: DetectionEntry): DetectionView['games'][number] {
    return {
      application_id: entry.applicationId,
      name: entry.name,
      executable: entry.executable,
      pid: entry.pid,
      started_at: entry.startedAt,
      detected_at: entry.detectedAt,
      ended_at: entry.endedAt,
      state: entry.endedAt === null ? this.activities.showing(entry.applicationId) : 'ended',
      custom: entry.custom,
    };
  }

  private nameOf(applicationId: string): string | undefined {
    const custom = this.options.settings.settings.custom.find((game) => game.id === applicationId);
    return custom?.name ?? this.options.list.applications().find((app) => app.id === applicationId)?.name;
  }

  /** The platform's list and the player's own games, to the detector. */
  private feedList(): void {
    const custom = this.options.settings.settings.custom;
    this.customIds = new Set(custom.map((game) => game.id));
    const applications: DetectableApplication[] = [...this.options.list.applications(), ...custom.map(customDetectable)];
    this.listed = applications.length;
    this.options.detector?.setList(applications);
    this.applyRunning();
    this.emit('change');
  }

  private applyRunning(): void {
    const detector = this.options.detector;
    if (detector === null) return;
    if (this.signedIn && this.options.settings.settings.enabled && this.listed > 0) detector.start();
    else detector.stop();
  }

  private readonly onSettings = (): void => {
    const custom = this.options.settings.settings.custom;
    const changedCustom = custom.length !== this.customIds.size || custom.some((game) => !this.customIds.has(game.id));
    if (changedCustom) this.feedList();
    this.activities.settingsChanged();
    this.applyRunning();
    this.emit('change');
  };

  private readonly onStart = (game: DetectedGame): void => {
    this.history.started(game, this.customIds.has(game.applicationId));
    this.activities.started(game);
    this.emit('start', game);
  };

  private readonly onEnd = (game: DetectedGame): void => {
    this.history.ended(game);
    this.activities.ended(game);
    this.emit('end', game);
  };
}
