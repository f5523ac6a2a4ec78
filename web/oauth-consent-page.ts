import { escapeHtml } from './sandbox-card-page.js';

/**
 * The consent page of the MCP sign-in (docs/mcp.md, "Sign-in"): server-rendered, no script and no
 * external resources, so it works with JavaScript off and under a strict CSP (CONSENT_PAGE_HEADERS).
 */
export const CONSENT_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` on the form's POST
  // (Fetch, "serializing a request origin"), and the consent answer is taken only with the portal's
  // own Origin (server/oauth-routes.ts). No Referer leaves for another site either way.
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  // form-action also governs the redirects after the POST: to /oauth/authorize here, then to the
  // assistant's registered redirect URI (https, or http on loopback).
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https: http:; frame-ancestors 'none'; base-uri 'none'",
};

export interface ConsentScopeView {
  readonly scope: string;
  readonly label: string;
  /** Asked for by the assistant and within the person's role: ticked to begin with. */
  readonly checked: boolean;
  /** Beyond the person's role: shown, not tickable, with the reason. */
  readonly refusedBecause: string | null;
}

export interface ConsentPageView {
  readonly clientName: string;
  readonly clientId: string;
  readonly redirectHost: string;
  readonly accountName: string;
  readonly email: string;
  readonly role: string;
  readonly formAction: string;
  readonly scopes: readonly ConsentScopeView[];
  readonly error?: string;
}

export function consentPage(view: ConsentPageView): string {
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  const scopes = view.scopes
    .map((s) => {
      const id = `scope-${s.scope.replace(/[^a-z]/g, '-')}`;
      const note = s.refusedBecause ? `<span class="note" id="${id}-note">${escapeHtml(s.refusedBecause)}</span>` : '';
      return `<li><input type="checkbox" id="${id}" name="scope" value="${escapeHtml(s.scope)}"${s.checked ? ' checked' : ''}${
        s.refusedBecause ? ` disabled aria-describedby="${id}-note"` : ''
      }> <label for="${id}"><code>${escapeHtml(s.scope)}</code>: ${escapeHtml(s.label)}</label>${note}</li>`;
    })
    .join('\n        ');
  return page(
    `Allow ${view.clientName}?`,
    `<form class="card" method="post" action="${escapeHtml(view.formAction)}">
      <h1>Allow <span class="client">${escapeHtml(view.clientName)}</span> to use your account?</h1>
      <p class="lead">It will act on <strong>${escapeHtml(view.accountName)}</strong> through the account's MCP endpoint, as you
      (<strong>${escapeHtml(view.email)}</strong>, ${escapeHtml(view.role)}), with only what you tick below. It will send you back to
      <strong>${escapeHtml(view.redirectHost)}</strong>.</p>
      ${error}
      <fieldset>
        <legend>What it may do</legend>
        <ul>
        ${scopes}
        </ul>
      </fieldset>
      <p class="aside">You can disconnect it at any time in the portal's settings, under "Connected assistants". Client id: <code>${escapeHtml(view.clientId)}</code>.</p>
      <div class="actions">
        <button type="submit" name="decision" value="allow" class="primary">Allow</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </div>
    </form>`,
  );
}

/** A page saying why the sign-in cannot go on and what to do. */
export function errorPage(detail: string): string {
  return page(
    'The sign-in cannot go on',
    `<div class="card">
      <h1>The sign-in cannot go on</h1>
      <p class="error" role="alert">${escapeHtml(detail)}</p>
      <p class="aside">Go back to the assistant and start connecting again.</p>
    </div>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1a1a1a; }
  main { max-width: 36rem; margin: 2rem auto; padding: 0 1rem; }
  @media (max-width: 480px) { main { margin: 1rem auto; padding: 0 0.5rem; } .card { padding: 1rem; } }
  .card { background: #fff; border: 1px solid #d0d4da; border-radius: 8px; padding: 1.5rem; overflow-wrap: anywhere; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  fieldset { border: 1px solid #d0d4da; border-radius: 6px; }
  ul { list-style: none; padding: 0; margin: 0; }
  li { margin: 0.5rem 0; }
  .note { display: block; margin-left: 1.75rem; color: #5c2d00; font-size: 0.9rem; }
  .error { color: #8a1c1c; background: #fdecec; border: 1px solid #e8b4b4; padding: 0.5rem 0.75rem; border-radius: 4px; }
  .aside { color: #4a4f57; font-size: 0.9rem; }
  .actions { display: flex; gap: 0.75rem; }
  button { font: inherit; padding: 0.5rem 1.25rem; border-radius: 6px; border: 1px solid #4a4f57; background: #fff; color: #1a1a1a; cursor: pointer; }
  button.primary { background: #1f4fbf; border-color: #1f4fbf; color: #fff; }
  button:focus-visible, input:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
