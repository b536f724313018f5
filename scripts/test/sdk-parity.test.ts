// Issue 28: docs/sdk.md's parity table (Social SDK method, Companion's call, notes) stays true. The
// data (rpc/client/parity/social-sdk-client-methods.json) is checked against the real Client class,
// and the doc against what scripts/sdk-parity.mjs renders from the data. Each check is first shown
// to catch a planted mistake.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '../../rpc/client/index.js';
import { currentParity, PARITY_DATA, PARITY_DOC, REGENERATE, renderParity, STATES } from '../lib/sdk-parity.mjs';

interface ParityMethod {
  readonly sdk: string;
  readonly area: string;
  readonly companion: string | null;
  readonly companionForm?: string;
  readonly state: string;
  readonly note: string;
}
interface ParityData {
  readonly methods: readonly ParityMethod[];
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOCIAL_SDK_CLIENT_METHODS = 155; // the public member functions of discordpp::Client in the SDK's 1.9 header
const HAS_A_CALL = new Set(['done', 'partial']);
const render = renderParity as (data: ParityData) => string;
const readCurrent = currentParity as (doc: string) => string | null;

function loadData(): ParityData {
  return JSON.parse(readFileSync(path.join(ROOT, PARITY_DATA), 'utf8')) as ParityData;
}

/** The names Client answers to: the methods of its prototype and its static ones. */
function clientCalls(): Set<string> {
  const calls = new Set<string>();
  for (const owner of [Client.prototype, Client]) {
    for (const name of Object.getOwnPropertyNames(owner)) {
      const value: unknown = Object.getOwnPropertyDescriptor(owner, name)?.value;
      if (name !== 'constructor' && typeof value === 'function') calls.add(name);
    }
  }
  return calls;
}

const camelCase = (pascal: string): string => pascal.charAt(0).toLowerCase() + pascal.slice(1);

/** Problems with the list itself: count, duplicates, names, states, companion present exactly when the state says so. */
function listProblems(data: ParityData): string[] {
  const problems: string[] = [];
  if (data.methods.length !== SOCIAL_SDK_CLIENT_METHODS) problems.push(`${data.methods.length} methods listed, the 1.9 header has ${SOCIAL_SDK_CLIENT_METHODS}`);
  const seen = new Set<string>();
  for (const method of data.methods) {
    if (seen.has(method.sdk)) problems.push(`${method.sdk} is listed twice`);
    seen.add(method.sdk);
    if (!/^[A-Z][A-Za-z0-9]*$/.test(method.sdk)) problems.push(`${method.sdk} is not a PascalCase method name`);
    if (!STATES.includes(method.state)) problems.push(`${method.sdk}: unknown state ${method.state}`);
    if (HAS_A_CALL.has(method.state) !== (method.companion !== null)) problems.push(`${method.sdk}: state ${method.state} with companion ${String(method.companion)}`);
    if (method.state === 'partial' && method.note.trim() === '') problems.push(`${method.sdk}: a partial row says how in its note`);
  }
  return problems;
}

/** Rows whose call Client lacks, and Client calls named like a Social SDK method but not listed as its call. */
function clientProblems(data: ParityData, calls: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const method of data.methods) {
    if (method.companion !== null && !calls.has(method.companion)) problems.push(`${method.sdk} is ${method.state} as ${method.companion}(), which Client does not have`);
    const sameName = camelCase(method.sdk);
    if (calls.has(sameName) && method.companion !== sameName) problems.push(`Client has ${sameName}() but ${method.sdk} is ${method.state} (${String(method.companion)}): mark it done or partial as ${sameName}`);
  }
  return problems;
}

function docProblems(data: ParityData, doc: string): string[] {
  const current = readCurrent(doc);
  if (current === null) return [`${PARITY_DOC} has no parity markers: run ${REGENERATE}`];
  return current === render(data) ? [] : [`${PARITY_DOC}'s parity table differs from ${PARITY_DATA}: run ${REGENERATE}`];
}

function withRow(data: ParityData, sdk: string, change: Partial<ParityMethod>): ParityData {
  return { methods: data.methods.map((method) => (method.sdk === sdk ? { ...method, ...change } : method)) };
}

describe('issue 28: the parity table stays true', () => {
  const data = loadData();
  const calls = clientCalls();
  const doc = readFileSync(path.join(ROOT, PARITY_DOC), 'utf8');

  it('reads the calls of the real Client', () => {
    expect(calls.has('getLobbyHandle') && calls.has('getVersionMajor')).toBe(true);
    expect(calls.has('constructor')).toBe(false);
  });

  it('lists the 155 Social SDK Client methods once each, with a known state and a call exactly when done or partial', () => {
    expect(listProblems({ methods: data.methods.slice(1) })).toContain(`154 methods listed, the 1.9 header has 155`);
    expect(listProblems(withRow(data, 'GetLobbyHandle', { state: 'missing' }))).toContain('GetLobbyHandle: state missing with companion getLobbyHandle');
    expect(listProblems(data)).toEqual([]);
  });

  it('every done or partial row names a call Client has, and a Client call named after a Social SDK method is that method\'s call', () => {
    expect(clientProblems(withRow(data, 'GetLobbyHandle', { companion: 'getLobbyHandel' }), calls)).toContain('GetLobbyHandle is done as getLobbyHandel(), which Client does not have');
    expect(clientProblems(withRow(data, 'SetShowingChat', { state: 'missing', companion: null }), calls)).toContain('Client has setShowingChat() but SetShowingChat is missing (null): mark it done or partial as setShowingChat');
    expect(clientProblems(data, calls)).toEqual([]);
  });

  it(`docs/sdk.md holds the table the data renders (else: ${REGENERATE})`, () => {
    const edited = withRow(data, 'Disconnect', { note: 'a note changed without regenerating' });
    expect(docProblems(edited, doc)).toEqual([`${PARITY_DOC}'s parity table differs from ${PARITY_DATA}: run ${REGENERATE}`]);
    expect(docProblems(data, doc.replace('<!-- parity:end -->', ''))).toEqual([`${PARITY_DOC} has no parity markers: run ${REGENERATE}`]);
    expect(docProblems(data, doc)).toEqual([]);
  });
});
