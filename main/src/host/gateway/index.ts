export * from './gateway-client.js';
export * from './platform-api.js';
export { Backoff, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
export { DEFAULT_SEND_BUDGET, SendBudget, type SendBudgetOptions } from './send-budget.js';
export { closeAction, fatalCloseDetail, type CloseAction } from './close-codes.js';
