import type { DoctorView } from '../../../../preload/src/contract.js';
import type { DoctorReport } from '../../diagnostics/doctor/doctor-report.js';

/** The doctor's report as the contract carries it (paths, states and advice; never a token). */
export function doctorView(report: DoctorReport, now: number): DoctorView {
  return {
    generated_at: now,
    directories: report.directories.map(({ dir, kind, why }) => ({ dir, kind, why })),
    sockets: report.sockets.map(({ path, state, holder }) => ({ path, state, holder })),
    clients: report.clients.map((client) => ({
      name: client.name,
      rule: client.rule,
      outcome: client.outcome.kind,
      path: client.outcome.path,
      reason: client.outcome.kind === 'connects' ? null : client.outcome.reason,
      reaches: client.reaches,
    })),
    flatpak: report.flatpak === null ? null : report.flatpak.apps.map(({ id, exposes, detail, fix }) => ({ id, exposes, detail, fix })),
    findings: [...report.findings],
  };
}
