import type { CommandIo } from './cli-args.js';
import type { ControlAction } from './control-action.js';
import type { HostEndpoint } from '../../base/host-locator.js';
import { ControlRequestError } from '../../base/control-client.js';

/** Splits a Server-Sent Events stream into blocks and prints each as one line `type data`. */
class EventLinePrinter {
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(private readonly io: CommandIo) {}

  push(chunk: Uint8Array): void {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      this.printBlock(this.buffer.slice(0, end));
      this.buffer = this.buffer.slice(end + 2);
    }
  }

  private printBlock(block: string): void {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (data !== undefined) this.io.stdout(`${event ?? 'message'} ${data}\n`);
  }
}

/** Prints each Server-Sent Event as one line `type data` until the stream ends or a signal. */
export async function streamEvents(host: HostEndpoint, io: CommandIo): Promise<number> {
  const aborter = new AbortController();
  const stop = (): void => aborter.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const response = await fetch(`${host.url}/v1/events`, { headers: { Authorization: `Bearer ${host.token}` }, signal: aborter.signal });
    if (!response.ok || response.body === null) throw new ControlRequestError(response.status, `HTTP ${response.status}`);
    const printer = new EventLinePrinter(io);
    for await (const chunk of response.body) printer.push(chunk as Uint8Array);
    return 0;
  } catch (error) {
    if (aborter.signal.aborted) return 0;
    if (error instanceof ControlRequestError) throw error;
    throw new ControlRequestError(0, `the event stream from ${host.url} ended: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

export const events: ControlAction = async (control) => {
  control.need(0, 'no arguments');
  return await streamEvents(control.host, control.io);
};
