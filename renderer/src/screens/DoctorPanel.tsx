import type { ReactNode } from 'react';
import type { DoctorView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { useApp } from '../store/react';

const OUTCOME_LABELS: Readonly<Record<DoctorView['clients'][number]['outcome'], string>> = {
  connects: 'connects',
  fails: 'fails',
  'not-checked': 'not checked here',
};

/**
 * `companion doctor` in the host's environment: where Companion listens, what holds each
 * socket, the socket each client library would pick, Flatpak apps that cannot see it (with
 * the command that fixes each). Run on demand: it probes sockets. A failure shows as a message.
 */
export function DoctorPanel(): ReactNode {
  const report = useApp((s) => s.doctor);
  const run = useApp((s) => s.runDoctor);
  const busy = useApp((s) => s.busy.includes('doctor'));
  return (
    <section className="card" aria-labelledby="doctor-title" data-testid="doctor-panel">
      <h2 id="doctor-title">Troubleshooting</h2>
      <p className="muted">A game does not show up? This finds where games look for Companion and what stops them.</p>
      <button type="button" onClick={() => void run()} disabled={busy} data-testid="doctor-run">
        {report === null ? 'Run the doctor' : 'Run again'}
      </button>
      {report !== null && <DoctorReportView report={report} />}
    </section>
  );
}

function DoctorReportView({ report }: { readonly report: DoctorView }): ReactNode {
  return (
    <div data-testid="doctor-report">
      {report.findings.length > 0 && (
        <>
          <h3>What to do</h3>
          <ul data-testid="doctor-findings">
            {report.findings.map((finding) => (
              <li key={finding}>{finding}</li>
            ))}
          </ul>
        </>
      )}
      {report.findings.length === 0 && <p data-testid="doctor-all-good">Nothing found in the way: games on this computer can reach Companion.</p>}
      <Details testId="doctor-details">
        <p className="muted">The same report as <code>companion doctor</code>, in Companion&apos;s environment.</p>
        <h3>Where Companion listens</h3>
        <ul>
          {report.directories.map((d) => (
            <li key={d.dir}>
              <code>{d.dir}</code> <span className="muted">({d.why})</span>
            </li>
          ))}
        </ul>
        <h3>Sockets</h3>
        <ul data-testid="doctor-sockets">
          {report.sockets.map((s) => (
            <li key={s.path}>
              <code>{s.path}</code>: {s.state}
              {s.holder !== null && ` (${s.holder})`}
            </li>
          ))}
        </ul>
        <h3>What each client library picks</h3>
        <table className="doctor-clients">
          <thead>
            <tr>
              <th scope="col">Library</th>
              <th scope="col">Socket</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {report.clients.map((c) => (
              <tr key={c.name} data-testid="doctor-client">
                <td title={c.rule}>{c.name}</td>
                <td>
                  <code>{c.path ?? '—'}</code>
                </td>
                <td>
                  {OUTCOME_LABELS[c.outcome]}
                  {c.reaches !== null && ` (${c.reaches})`}
                  {c.reason !== null && <span className="muted"> · {c.reason}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {report.flatpak !== null && report.flatpak.length > 0 && (
          <>
            <h3>Flatpak apps</h3>
            <ul>
              {report.flatpak.map((app) => (
                <li key={app.id}>
                  <code>{app.id}</code>: {app.detail}
                  {app.fix !== null && (
                    <>
                      {' '}
                      Fix: <code>{app.fix}</code>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </Details>
    </div>
  );
}
