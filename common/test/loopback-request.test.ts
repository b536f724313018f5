import { describe, expect, it } from 'vitest';
import { declaresTooLong, isForeignOrigin, isJsonContentType, isLoopbackHost, isNonJsonBody, loopbackOrigins } from '../src/loopback-request.js';

describe('loopback request checks', () => {
  it('takes the loopback names on the port only', () => {
    for (const host of ['127.0.0.1:8080', 'localhost:8080', 'LOCALHOST:8080', '[::1]:8080']) expect(isLoopbackHost(host, 8080), host).toBe(true);
    for (const host of [undefined, '', '127.0.0.1', '127.0.0.1:8081', 'rebind.evil.example:8080', '127.0.0.1.evil.example:8080', '[::1]:8080x']) {
      expect(isLoopbackHost(host, 8080), String(host)).toBe(false);
    }
    expect(isLoopbackHost('[::1]:8080', 8080, ['127.0.0.1', 'localhost'])).toBe(false);
  });

  it('calls an origin foreign unless it is absent or the service own', () => {
    const own = loopbackOrigins(8080);
    expect(isForeignOrigin(undefined, own)).toBe(false);
    expect(isForeignOrigin('http://127.0.0.1:8080', own)).toBe(false);
    expect(isForeignOrigin('http://localhost:8080', own)).toBe(false);
    for (const origin of ['null', 'https://evil.example', 'http://127.0.0.1:8081', 'https://127.0.0.1:8080']) expect(isForeignOrigin(origin, own), origin).toBe(true);
  });

  it('wants application/json where a body is sent or a type named', () => {
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isNonJsonBody({})).toBe(false);
    expect(isNonJsonBody({ 'content-length': '0' })).toBe(false);
    expect(isNonJsonBody({ 'content-length': '2', 'content-type': 'application/json' })).toBe(false);
    expect(isNonJsonBody({ 'content-length': '2' })).toBe(true);
    expect(isNonJsonBody({ 'transfer-encoding': 'chunked', 'content-type': 'text/plain' })).toBe(true);
    expect(isNonJsonBody({ 'content-type': 'application/x-www-form-urlencoded' })).toBe(true);
  });

  it('judges a declared length against the limit', () => {
    expect(declaresTooLong(undefined, 10)).toBe(false);
    expect(declaresTooLong('10', 10)).toBe(false);
    expect(declaresTooLong('11', 10)).toBe(true);
    expect(declaresTooLong(String(2 ** 40), 10)).toBe(true);
  });
});
