import type { PlatformTlsListener } from '../../../../platform/src/index.js';
import { trustInstructionLines } from '../../../../platform/src/tls/trust-instructions.js';

/** What a native game passes to the Social SDK's `Client(apiBase, webBase)` for this listener. */
export function nativeClientArguments(tlsUrl: string): string {
  return `Client("${tlsUrl}", "${tlsUrl}")`;
}

/**
 * The lines `platform serve --tls` (and `serve --platform-tls`) print: where the TLS listener
 * is, what a native game passes to the SDK, the CA's file, and how to trust it when it is new.
 * Never a key: only the certificate's path.
 */
export function tlsReport(tls: PlatformTlsListener): string {
  const lines = [
    `Platform emulator (TLS) listening on ${tls.url} (gateway ${tls.gatewayUrl})`,
    `A native Social SDK game: ${nativeClientArguments(tls.url)}`,
    `Local certificate authority: ${tls.caCertFile}${tls.newAuthority ? ' (new: trust it once, as below)' : ''}`,
  ];
  if (tls.newAuthority) lines.push(...trustInstructionLines(tls.caCertFile));
  else lines.push("How to trust it on each system: 'companion platform tls'");
  return `${lines.join('\n')}\n`;
}
