/** How to make one system trust the emulator's local certificate authority, and undo it. */
export interface TrustInstruction {
  readonly system: string;
  readonly trust: readonly string[];
  readonly untrust: readonly string[];
}

/** The certificate's name in the system stores (what the untrust commands name). */
export const AUTHORITY_NAME = 'Companion local test CA';
const LINUX_FILE = '/usr/local/share/ca-certificates/companion-local-test-ca.crt';
const FEDORA_FILE = '/etc/pki/ca-trust/source/anchors/companion-local-test-ca.pem';

function quoted(file: string): string {
  return `"${file}"`;
}

/**
 * The commands for each system, for the authority's certificate at `caCertFile` (never the key:
 * a system trusts the certificate only). Trusting it lets a native game's TLS stack, which
 * reads the system store, accept the emulator's `https://127.0.0.1` and `wss://127.0.0.1`.
 */
export function trustInstructions(caCertFile: string): readonly TrustInstruction[] {
  const file = quoted(caCertFile);
  return [
    {
      system: 'Debian, Ubuntu, SteamOS',
      trust: [`sudo cp ${file} ${LINUX_FILE}`, 'sudo update-ca-certificates'],
      untrust: [`sudo rm ${LINUX_FILE}`, 'sudo update-ca-certificates --fresh'],
    },
    {
      system: 'Fedora, RHEL, Arch',
      trust: [`sudo cp ${file} ${FEDORA_FILE}`, 'sudo update-ca-trust'],
      untrust: [`sudo rm ${FEDORA_FILE}`, 'sudo update-ca-trust'],
    },
    {
      system: 'macOS',
      trust: [`sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ${file}`],
      untrust: [`sudo security delete-certificate -c "${AUTHORITY_NAME}" /Library/Keychains/System.keychain`],
    },
    {
      system: 'Windows (this user; for the whole machine, leave out -user in an administrator prompt)',
      trust: [`certutil -user -addstore Root ${file}`],
      untrust: [`certutil -user -delstore Root "${AUTHORITY_NAME}"`],
    },
    {
      system: 'A Node.js program (no system change)',
      trust: [`NODE_EXTRA_CA_CERTS=${file} node your-program.js`],
      untrust: [],
    },
  ];
}

/** The instructions as lines of text, for a terminal. */
export function trustInstructionLines(caCertFile: string): string[] {
  const lines = [`To trust the emulator's local certificate authority (${caCertFile}):`];
  for (const instruction of trustInstructions(caCertFile)) {
    lines.push(`  ${instruction.system}:`, ...instruction.trust.map((command) => `    ${command}`));
    if (instruction.untrust.length > 0) lines.push(`    (to undo: ${instruction.untrust.join(' && ')})`);
  }
  return lines;
}
