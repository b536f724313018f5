import { SCOPE_DESCRIPTIONS } from '../wire/index.js';
import type { OAuthError } from './errors.js';
import type { AuthorizeRequest } from './service.js';

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
li{margin:.3rem 0}.error{color:#a00}button{padding:.4rem 1rem;margin-right:.5rem}input{padding:.3rem}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body></html>
`;
}

/**
 * The consent page of the browser flow: the app, the scopes in plain words, a dev login by
 * username, and Authorize / Cancel. The form posts back to the same URL (same query).
 */
export function renderAuthorizePage(request: AuthorizeRequest, query: URLSearchParams, error?: string, username = ''): string {
  const app = request.app;
  const scopes = request.expanded.map((scope) => `<li>${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? scope)} <small>(${escapeHtml(scope)})</small></li>`).join('\n');
  const action = `/oauth2/authorize?${query.toString()}`;
  return layout(
    `Authorize ${app.name}`,
    `<h1>${escapeHtml(app.name)}</h1>
<p>${app.verified ? '' : '<strong>Unverified application.</strong> '}wants to access your account. This will allow it to:</p>
<ul>
${scopes}
</ul>
${error !== undefined ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<p><label>Username (dev login) <input name="username" autocomplete="username" value="${escapeHtml(username)}"></label></p>
<p><button type="submit" name="decision" value="approve">Authorize</button><button type="submit" name="decision" value="deny">Cancel</button></p>
</form>
<p><small>Platform emulator: no password, local test accounts only.</small></p>`,
  );
}

/** The page for a request that cannot be redirected (unknown app, redirect not registered). */
export function renderAuthorizeError(error: OAuthError): string {
  return layout('Authorization error', `<h1>Authorization error</h1>\n<p class="error">${escapeHtml(error.error)}: ${escapeHtml(error.description)}</p>`);
}

/**
 * The device flow's verification page (`/activate`): the user code (filled in from
 * `verification_uri_complete`), a dev login by username, and Authorize / Cancel **(ours)**.
 */
export function renderActivatePage(userCode: string, message?: { text: string; error: boolean }, username = ''): string {
  const note = message === undefined ? '' : `<p${message.error ? ' class="error"' : ''}>${escapeHtml(message.text)}</p>`;
  return layout(
    'Activate a device',
    `<h1>Activate a device</h1>
<p>Enter the code your console or TV shows.</p>
${note}
<form method="post" action="/activate">
<p><label>Code <input name="user_code" autocomplete="off" value="${escapeHtml(userCode)}"></label></p>
<p><label>Username (dev login) <input name="username" autocomplete="username" value="${escapeHtml(username)}"></label></p>
<p><button type="submit" name="decision" value="approve">Authorize</button><button type="submit" name="decision" value="deny">Cancel</button></p>
</form>
<p><small>Platform emulator: no password, local test accounts only.</small></p>`,
  );
}
