import type { ConsentPromptView, ConsentSettledEvent, ControlEvent } from './control-backend.js';
import type { ConsentBroker, ConsentOutcome, ConsentRequestView } from '../auth/consent-broker.js';

/** The control API's names of the broker's events. */
export const CONSENT_EVENTS = {
  request: 'consent-request',
  settled: 'consent-settled',
  autoApproved: 'consent-auto-approved',
} as const;

/** A broker request in the control API's snake_case shape. */
export function toConsentPromptView(request: ConsentRequestView): ConsentPromptView {
  return {
    id: request.id,
    application: { id: request.applicationId, name: request.applicationName, icon: request.applicationIcon, verified: request.verified },
    scopes: [...request.scopes],
    expanded_scopes: [...request.expandedScopes],
    descriptions: request.descriptions.map(({ scope, text }) => ({ scope, text })),
    integration_type: request.integrationType,
    prompt: request.prompt,
    connection_id: request.connectionId,
    state: request.state,
    created_at: request.createdAt,
    visible_at: request.visibleAt,
    expires_at: request.expiresAt,
  };
}

export function toConsentSettledEvent(request: ConsentRequestView, outcome: ConsentOutcome): ConsentSettledEvent {
  return { request: toConsentPromptView(request), outcome: outcome.kind === 'approved' ? { kind: 'approved', remembered: outcome.remembered } : { kind: outcome.kind } };
}

/**
 * Forwards the broker's events as control events (`consent-request`, `consent-settled`,
 * `consent-auto-approved`) for `ControlBackend.subscribe`. Returns the unsubscribe function.
 */
export function consentControlEvents(broker: ConsentBroker, listener: (event: ControlEvent) => void): () => void {
  const onRequest = (request: ConsentRequestView): void => listener({ type: CONSENT_EVENTS.request, data: toConsentPromptView(request) });
  const onSettled = (request: ConsentRequestView, outcome: ConsentOutcome): void =>
    listener({ type: CONSENT_EVENTS.settled, data: toConsentSettledEvent(request, outcome) });
  const onAutoApproved = (request: ConsentRequestView): void =>
    listener({ type: CONSENT_EVENTS.autoApproved, data: toConsentPromptView(request) });
  broker.on('request', onRequest);
  broker.on('settled', onSettled);
  broker.on('auto-approved', onAutoApproved);
  return () => {
    broker.off('request', onRequest);
    broker.off('settled', onSettled);
    broker.off('auto-approved', onAutoApproved);
  };
}
