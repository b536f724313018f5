import type { ClientRequest } from 'node:http';
import { http } from '../../../../common/src/node/http-module.js';
import type { CommandIo } from './cli-args.js';
import type { ControlAction } from './control-action.js';
import type { HostEndpoint } from '../../base/host-locator.js';
import { ControlRequestError } from '../../base/control-client.js';
import { stopSignals } from './stop-signal.js';

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

/**
 * Prints each Server-Sent Event as one line `type data` until the stream ends or a stop signal
 * (stopSignals: Ctrl+C, and on Windows Ctrl+Break too). node:http, as every loopback call of
 * the CLI (control-client.ts says why not fetch).
 */
export async function streamEvents(host: HostEndpoint, io: CommandIo): Promise<number> {
  const signals = stopSignals();
  let request: ClientRequest | undefined;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    request?.destroy();
  };
  for (const signal of signals) process.once(signal, stop);
  try {
    return await new Promise<number>((resolve, reject) => {
      request = http.get(`${host.url}/v1/events`, { headers: { Authorization: `Bearer ${host.token}` } }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new ControlRequestError(response.statusCode ?? 0, `HTTP ${response.statusCode ?? 0}`));
          return;
        }
        const printer = new EventLinePrinter(io);
        response.on('data', (chunk: Buffer) => printer.push(chunk));
        response.on('end', () => resolve(0));
        response.on('error', (error) => (stopped ? resolve(0) : reject(streamEnded(host, error))));
        response.on('close', () => (stopped || response.complete ? resolve(0) : reject(streamEnded(host, new Error('the connection closed')))));
      });
      request.on('error', (error) => (stopped ? resolve(0) : reject(streamEnded(host, error))));
    });
  } finally {
    for (const signal of signals) process.off(signal, stop);
  }
}

function streamEnded(host: HostEndpoint, error: Error): ControlRequestError {
  return new ControlRequestError(0, `the event stream from ${host.url} ended: ${error.message}`);
}

export const events: ControlAction = async (control) => {
  control.need(0, 'no arguments');
  return await streamEvents(control.host, control.io);
};
