import type { ReactNode } from 'react';

/** One developer fact: its label and value, and a test id for QA's checks. */
export interface Fact {
  readonly label: string;
  readonly value: ReactNode;
  readonly testId?: string;
}

/**
 * The developer facts of one card or dialog (ids, transports, scope codes, the precise error),
 * behind one "Details" disclosure: closed by default, so a player reads words and QA opens it.
 * A native <details>/<summary>: keyboard and screen readers know it as a disclosure.
 */
export function Details({ facts, children, testId = 'details' }: { readonly facts?: readonly Fact[]; readonly children?: ReactNode; readonly testId?: string }): ReactNode {
  const shown = (facts ?? []).filter((fact) => fact.value !== null && fact.value !== undefined && fact.value !== '');
  return (
    <details className="details" data-testid={testId}>
      <summary>Details</summary>
      {shown.length > 0 && (
        <dl className="facts">
          {shown.map((fact) => (
            <Row key={fact.label} fact={fact} />
          ))}
        </dl>
      )}
      {children}
    </details>
  );
}

function Row({ fact }: { readonly fact: Fact }): ReactNode {
  return (
    <>
      <dt>{fact.label}</dt>
      <dd data-testid={fact.testId}>{fact.value}</dd>
    </>
  );
}
