import path from 'node:path';
import { CertificateStore, trustInstructionLines } from '../../../../platform/src/index.js';
import { parseCommandArgs, type CommandIo } from './cli-args.js';

const HELP = `Usage: companion platform tls [--data DIR] [--json]

The emulator's local certificate authority (what 'platform serve --tls' serves with):
where its certificate is and how to trust it on each system. Makes it if there is
none yet; never prints a key (the keys stay in DIR/tls, mode 0600).
`;

/** `companion platform tls`: the CA's file, its server certificate's expiry, and the trust commands. */
export async function tlsCommand(argv: readonly string[], io: CommandIo, dataDirFrom: (value: string | undefined, io: CommandIo) => string): Promise<number> {
  const parsed = parseCommandArgs('platform tls', argv, { data: { type: 'string' }, json: { type: 'boolean' } });
  if (parsed.help) {
    io.stdout(HELP);
    return 0;
  }
  const dataDir = path.resolve(dataDirFrom(parsed.values.data as string | undefined, io));
  const credentials = await new CertificateStore({ dataDir, now: Date.now }).credentials();
  const { files } = credentials;
  if (parsed.values.json === true) {
    io.stdout(`${JSON.stringify({ caCertFile: files.caCert, serverCertFile: files.serverCert, serverNotAfter: credentials.serverNotAfter.toISOString(), newAuthority: credentials.newAuthority }, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `Local certificate authority: ${files.caCert}${credentials.newAuthority ? ' (made now)' : ''}`,
    `Server certificate: ${files.serverCert} (localhost, 127.0.0.1, ::1; valid until ${credentials.serverNotAfter.toISOString()})`,
    ...trustInstructionLines(files.caCert),
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}
