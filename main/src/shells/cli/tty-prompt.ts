import { createInterface, type Interface } from 'node:readline';
import type { ConsentBroker, ConsentOutcome, ConsentRequestView } from '../../host/auth/consent-broker.js';

export interface TtyPromptOptions {
  readonly broker: ConsentBroker;
  /** Where answers come from (process.stdin in `companion serve`). */
  readonly input: NodeJS.ReadableStream;
  /** Where prompts go (process.stdout). */
  readonly output: { write(text: string): unknown };
  /** Clock for the type-ahead guard (tests). */
  readonly now?: () => number;
}

/** Answers that arrive this soon after a prompt appears were typed for an earlier one. */
export const TYPE_AHEAD_GUARD_MS = 750;

export interface TtyPrompt {
  /** Stops listening to the broker and to the input (the streams themselves stay open). */
  close(): void;
}

/** Whether `companion serve` should start the TTY prompt: both stdin and stdout are terminals. */
export function isInteractiveTerminal(stdin: { isTTY?: boolean }, stdout: { isTTY?: boolean }): boolean {
  return stdin.isTTY === true && stdout.isTTY === true;
}

/** Names come from the platform: no control characters (escape sequences) reach the terminal. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function appLabel(request: ConsentRequestView): string {
  return `"${printable(request.applicationName)}"${request.verified ? '' : ' (unverified)'}`;
}

function minutes(ms: number): string {
  const value = Math.round(ms / 6000) / 10;
  return `${value} minute${value === 1 ? '' : 's'}`;
}

function promptText(request: ConsentRequestView): string {
  const lines = ['', `Consent request ${request.id}`, `${appLabel(request)} wants to:`];
  for (const { scope, text } of request.descriptions) lines.push(`  - ${printable(text)} [${printable(scope)}]`);
  if (request.expiresAt !== null && request.visibleAt !== null) {
    lines.push(`No answer within ${minutes(request.expiresAt - request.visibleAt)} counts as a timeout.`);
  }
  return `${lines.join('\n')}\nAllow? [y/N] `;
}

function settledText(request: ConsentRequestView, outcome: ConsentOutcome, answeredHere: boolean): string {
  const app = appLabel(request);
  switch (outcome.kind) {
    case 'approved':
      return answeredHere ? `Allowed ${app}.\n` : `\n${app} was allowed elsewhere (request ${request.id}).\n`;
    case 'denied':
      return answeredHere ? `Denied ${app}.\n` : `\n${app} was denied elsewhere (request ${request.id}).\n`;
    case 'dismissed':
      return `\nThe request of ${app} was dismissed (the game went away or it was cancelled).\n`;
    case 'timed-out':
      return `\nNo answer in time: the request of ${app} timed out.\n`;
  }
}

/**
 * The consent front end of `companion serve` on a terminal: shows one visible request at a
 * time (the others wait here in the order they became visible), reads one line per request:
 * `y` or `yes` (any case) approves, anything else denies. A request settled some other way
 * (time limit, the game left, the control API) is reported and the next one is shown.
 * Announces requests approved by a remembered grant.
 *
 * The input is read in line mode (readline without terminal handling), so Ctrl+C still reaches
 * the process as SIGINT and stops the host.
 */
export function startTtyPrompt(options: TtyPromptOptions): TtyPrompt {
  const { broker, output } = options;
  const waiting: ConsentRequestView[] = [];
  let current: ConsentRequestView | undefined;
  /** The id this prompt just answered, so its own decision reads "Allowed", not "elsewhere". */
  let answering: string | undefined;
  let closed = false;
  const now = options.now ?? Date.now;
  let shownAt = 0;
  const readline: Interface = createInterface({ input: options.input, terminal: false });

  const showNext = (): void => {
    if (closed || current !== undefined) return;
    current = waiting.shift();
    if (current !== undefined) {
      shownAt = now();
      output.write(promptText(current));
    }
  };

  const onRequest = (request: ConsentRequestView): void => {
    if (waiting.some((item) => item.id === request.id) || current?.id === request.id) return;
    waiting.push(request);
    showNext();
  };

  const onSettled = (request: ConsentRequestView, outcome: ConsentOutcome): void => {
    if (current?.id === request.id) {
      output.write(settledText(current, outcome, answering === request.id));
      current = undefined;
      showNext();
      return;
    }
    const index = waiting.findIndex((item) => item.id === request.id);
    if (index !== -1) waiting.splice(index, 1);
  };

  const onAutoApproved = (request: ConsentRequestView): void => {
    output.write(`${printable(request.applicationName)} was allowed again: ${request.scopes.map(printable).join(', ')} (remembered)\n`);
  };

  const onLine = (line: string): void => {
    if (current === undefined) return;
    // A line typed (or pasted) before this prompt could be read was meant for an earlier one:
    // it must not answer a request the player has not seen yet.
    if (now() - shownAt < TYPE_AHEAD_GUARD_MS) {
      output.write('(ignored an answer typed before this request was shown; answer again)\n');
      return;
    }
    const answer = line.trim().toLowerCase();
    answering = current.id;
    try {
      broker.decide(current.id, answer === 'y' || answer === 'yes' ? 'approve' : 'deny');
    } finally {
      answering = undefined;
    }
  };

  const close = (): void => {
    if (closed) return;
    closed = true;
    broker.off('request', onRequest);
    broker.off('settled', onSettled);
    broker.off('auto-approved', onAutoApproved);
    readline.off('line', onLine);
    readline.close();
  };

  broker.on('request', onRequest);
  broker.on('settled', onSettled);
  broker.on('auto-approved', onAutoApproved);
  readline.on('line', onLine);
  // End of input (Ctrl+D, a closed pipe): nobody can answer here any more; other front ends still can.
  readline.on('close', close);
  for (const request of broker.pending()) if (request.state === 'visible') onRequest(request);
  return { close };
}
