import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { RpcServer } from '../../../../rpc/src/index.js';
import { HostEvents, type HostEvent, type HostEventSources } from '../../../src/host/record/host-events.js';

const connection = (id: string, wasProbe = false) => ({ id, transport: 'ipc', clientId: '42', pid: 7, wasProbe });
const request = { connectionId: 'c1', applicationId: '42', expandedScopes: ['identify'] };

function sources(): { server: EventEmitter; consent: EventEmitter; gateway: EventEmitter; all: HostEventSources } {
  const server = new EventEmitter();
  const consent = new EventEmitter();
  const gateway = new EventEmitter();
  return { server, consent, gateway, all: { server: server as unknown as Pick<RpcServer, 'on' | 'off'>, consent: consent as never, gateway: gateway as never } };
}

describe('HostEvents', () => {
  it("turns the server's, consent's and the gateway's events into the recording's shapes, in order", () => {
    const { server, consent, gateway, all } = sources();
    const seen: HostEvent[] = [];
    new HostEvents(all).subscribe((event) => seen.push(event));
    server.emit('connection', connection('c1'));
    server.emit('ready', connection('c1'));
    consent.emit('settled', request, { kind: 'denied' });
    consent.emit('decided', request, { kind: 'approved', remembered: true });
    consent.emit('decided', request, { kind: 'approved', remembered: false });
    gateway.emit('dispatch', 'PRESENCE_UPDATE', { user: { id: '2' } });
    server.emit('disconnect', connection('c1'), { reason: 'server-close', code: 4003 });
    server.emit('disconnect', connection('c2', true), { reason: 'peer-closed' });
    expect(seen).toEqual([
      { kind: 'open', connection: 'c1', transport: 'ipc' },
      { kind: 'ready', connection: 'c1', client_id: '42' },
      { kind: 'consent', connection: 'c1', application_id: '42', scopes: ['identify'], outcome: 'denied', by: 'player' },
      { kind: 'consent', connection: 'c1', application_id: '42', scopes: ['identify'], outcome: 'approved', by: 'remembered' },
      { kind: 'consent', connection: 'c1', application_id: '42', scopes: ['identify'], outcome: 'approved', by: 'policy' },
      { kind: 'gateway', type: 'PRESENCE_UPDATE', data: { user: { id: '2' } } },
      { kind: 'close', connection: 'c1', client_id: '42', pid: 7, reason: 'server-close', code: 4003, probe: false },
      { kind: 'close', connection: 'c2', client_id: '42', pid: 7, reason: 'peer-closed', code: null, probe: true },
    ]);
  });

  it('listens to its sources only while someone listens to it', () => {
    const { server, consent, gateway, all } = sources();
    const events = new HostEvents(all);
    expect(server.listenerCount('connection')).toBe(0);
    const first = events.subscribe(() => undefined);
    const second = events.subscribe(() => undefined);
    expect([server.listenerCount('disconnect'), consent.listenerCount('settled'), gateway.listenerCount('dispatch')]).toEqual([1, 1, 1]);
    first();
    first();
    expect(server.listenerCount('disconnect')).toBe(1);
    second();
    expect([server.listenerCount('connection'), server.listenerCount('ready'), server.listenerCount('disconnect'), consent.listenerCount('decided'), gateway.listenerCount('dispatch')]).toEqual([0, 0, 0, 0, 0]);
  });
});
