import { opendir, realpath, stat } from 'node:fs/promises';
import { tryConnect } from '../../../../rpc/src/index.js';
import type { FsView, PathState } from './client-rules.js';

/** Enough rounds for the rules' chains of lookups (a listing, then its entries). */
const MAX_ROUNDS = 6;

/**
 * A snapshot of the file system, filled on demand: `collect` runs pure rules against it,
 * notes every path they asked about that is not known yet, looks those up (sockets are
 * probed with a connection that sends nothing, as pypresence and servers do), and runs the
 * rules again, until they ask nothing new. The rules stay synchronous and pure.
 */
export class FsSnapshot {
  private readonly states = new Map<string, PathState>();
  private readonly listings = new Map<string, readonly string[] | undefined>();
  private readonly realpaths = new Map<string, string | undefined>();

  /** `visible`: paths to look at; the others count as absent and are never touched. */
  constructor(private readonly visible: (p: string) => boolean = () => true) {}

  /** Runs `rules` until they ask about nothing unknown; returns the view they last saw. */
  async collect(rules: (view: FsView) => void): Promise<FsView> {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const wanted = { states: new Set<string>(), listings: new Set<string>(), realpaths: new Set<string>() };
      rules(this.view(wanted));
      if (wanted.states.size + wanted.listings.size + wanted.realpaths.size === 0) break;
      await Promise.all([
        ...[...wanted.states].map(async (p) => this.states.set(p, this.visible(p) ? await pathState(p) : 'absent')),
        ...[...wanted.listings].map(async (d) => this.listings.set(d, this.visible(d) ? await listInOrder(d) : undefined)),
        ...[...wanted.realpaths].map(async (p) => this.realpaths.set(p, this.visible(p) ? await realpath(p).catch(() => undefined) : undefined)),
      ]);
    }
    return this.view();
  }

  private view(wanted?: { states: Set<string>; listings: Set<string>; realpaths: Set<string> }): FsView {
    return {
      state: (p) => {
        const known = this.states.get(p);
        if (known === undefined) wanted?.states.add(p);
        return known ?? 'absent';
      },
      list: (dir) => {
        if (!this.listings.has(dir)) wanted?.listings.add(dir);
        return this.listings.get(dir);
      },
      realpath: (p) => {
        if (!this.realpaths.has(p)) wanted?.realpaths.add(p);
        return this.realpaths.get(p);
      },
    };
  }
}

async function pathState(p: string): Promise<PathState> {
  if (p === '') return 'absent';
  let stats;
  try {
    stats = await stat(p);
  } catch {
    return 'absent';
  }
  if (stats.isDirectory()) return 'directory';
  if (!stats.isSocket()) return 'file';
  return probeSocket(p);
}

async function probeSocket(p: string): Promise<PathState> {
  const outcome = await tryConnect(p);
  if (outcome === 'connected') return 'answers';
  return outcome === 'EACCES' || outcome === 'EPERM' ? 'no-access' : outcome === 'ENOENT' ? 'absent' : 'refuses';
}

/** Entries in directory order (opendir, unsorted: readdir's order, which pypresence sees; fs.readdir sorts). */
async function listInOrder(dir: string): Promise<readonly string[] | undefined> {
  try {
    const names: string[] = [];
    for await (const entry of await opendir(dir)) names.push(entry.name);
    return names;
  } catch {
    return undefined;
  }
}
