/**
 * An error's text as a player reads it. The host's and the bridge's errors are written for
 * developers and the CLI: a path into the call's arguments (`args.0: …`, `bad arguments at 0:
 * …`), a CLI command to run (`add one with 'companion platform users add NAME'`), a channel
 * name. The player gets plain words; the precise text stays for the banner's Details.
 */

/** Errors whose developer wording has a player's sentence. */
const PLAIN: readonly { readonly match: RegExp; readonly text: (m: RegExpExecArray) => string }[] = [
  { match: /^no user named '([^']*)' on the platform/i, text: (m) => `there is no account named ${m[1] ?? ''}` },
  { match: /a username is 2 to 32 letters, digits, _ or \./i, text: () => 'a username has 2 to 32 characters: letters, digits, _ and . only' },
  { match: /^type a username$/i, text: () => 'type their username' },
  { match: /did not answer \S+ in time/i, text: () => 'Companion did not answer in time; try again' },
  { match: /^no pending (consent|origin) request\b/i, text: () => 'that request is no longer waiting for an answer' },
  { match: /^no (remembered origin|origin decision)\b/i, text: () => 'Companion no longer remembers that web page' },
  { match: /^unknown channel$/i, text: () => 'this version of Companion cannot do that' },
];

/** Where in the call the bridge found the problem: `args.0: `, `message.channel: `, `bad arguments at 0: `. */
const ARGUMENT_PATH = /^(?:(?:args|message)(?:\.[\w$]+)*|bad arguments(?: at [\w.$]+)?): /i;

/** A CLI command quoted in the text: `'companion …'` or `` `companion …` ``. */
const CLI_COMMAND = /['`]companion [^'`]*['`]/i;

/** Drops each parenthesis, and each clause after `;`, that names a CLI command. */
function withoutCliHints(text: string): string {
  let out = text.replace(/\s*\([^()]*\)/g, (part) => (CLI_COMMAND.test(part) ? '' : part));
  out = out
    .split(/;\s*/)
    .filter((clause, index) => index === 0 || !CLI_COMMAND.test(clause))
    .join('; ');
  // A command left in the first clause itself: say only what went wrong before it.
  const command = CLI_COMMAND.exec(out);
  if (command !== null) out = out.slice(0, command.index).replace(/[\s,:;(-]*(?:with|run|see|use|try)?[\s:]*$/i, '');
  return out.trim();
}

/** The player's words for an error's text (never empty). */
export function playerErrorText(raw: string): string {
  const text = raw.trim().replace(ARGUMENT_PATH, '');
  for (const { match, text: plain } of PLAIN) {
    const m = match.exec(text);
    if (m !== null) return plain(m);
  }
  const cleaned = withoutCliHints(text);
  return cleaned === '' ? 'something went wrong' : cleaned;
}
