import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../../../../common/src/node/atomic-file.js';
import type { DetectableApplication } from '../../../../platform/src/wire/index.js';

/** The cached copy of the platform's detectable list, in the data dir. */
export const DETECTABLE_CACHE_FILE = 'detectable-applications.json';
const FORMAT_VERSION = 1;

const ExecutableSchema = v.object({
  os: v.picklist(['win32', 'linux', 'darwin']),
  name: v.pipe(v.string(), v.minLength(1)),
  is_launcher: v.optional(v.boolean(), false),
  arguments: v.optional(v.nullable(v.string())),
});

const ApplicationSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/)),
  name: v.pipe(v.string(), v.minLength(1)),
  executables: v.nullish(v.array(v.unknown()), []),
  aliases: v.optional(v.array(v.string())),
});

/**
 * The platform's answer in the wire's shape: an application that is not one (no id or name) is
 * left out, and so is an executable of another OS family or without a name (the real list has
 * entries of both kinds); a body that is not a list is null.
 */
export function parseDetectableList(body: unknown): DetectableApplication[] | null {
  if (!Array.isArray(body)) return null;
  const list: DetectableApplication[] = [];
  for (const entry of body) {
    const app = v.safeParse(ApplicationSchema, entry);
    if (!app.success) continue;
    const executables = [];
    for (const candidate of app.output.executables) {
      const executable = v.safeParse(ExecutableSchema, candidate);
      if (!executable.success) continue;
      const { arguments: args, ...rest } = executable.output;
      executables.push(typeof args === 'string' && args.length > 0 ? { ...rest, arguments: args } : rest);
    }
    list.push({ id: app.output.id, name: app.output.name, executables, ...(app.output.aliases === undefined ? {} : { aliases: app.output.aliases }) });
  }
  return list;
}

/** What the cache file holds: the list as last fetched, its tag and when. */
export interface CachedDetectableList {
  readonly etag: string | null;
  /** Epoch ms of the fetch (or of the last 304 that confirmed it). */
  readonly fetched_at: number;
  readonly applications: readonly DetectableApplication[];
}

const CacheSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  etag: v.nullable(v.string()),
  fetched_at: v.number(),
  applications: v.array(v.unknown()),
});

/**
 * `<data dir>/detectable-applications.json`: read at start (the host works from it when the
 * platform cannot be reached), replaced atomically after each fetch. A missing or unreadable
 * file is no copy (the next fetch writes a good one).
 */
export class DetectableListFile {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, DETECTABLE_CACHE_FILE);
  }

  async read(): Promise<CachedDetectableList | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return null;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return null;
    }
    const cache = v.safeParse(CacheSchema, parsed);
    if (!cache.success) return null;
    const applications = parseDetectableList(cache.output.applications) ?? [];
    return { etag: cache.output.etag, fetched_at: cache.output.fetched_at, applications };
  }

  async write(cache: CachedDetectableList): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    // Compact: the real list is megabytes; indenting would add a third.
    await writeFileAtomic(this.file, JSON.stringify({ version: FORMAT_VERSION, ...cache }));
  }
}
