import { createHash } from 'node:crypto';
import { CHECKS_PAGE_SCRIPT } from './checks-page-script.js';
import { CHECKS_PAGE_STYLE } from './checks-page-style.js';

/**
 * The checks page at `{base_url}/`: one HTML document with its CSS and script inline (no external
 * assets). A person types a domain and the script asks the same origin's /graphql for the grade and
 * every check in one query (web/checks-page-client/checks-page.ts, built with the portal and read by
 * web/checks-page-script.ts).
 *
 * The document is the same for every request, so it is built once; the Content-Security-Policy
 * allows exactly this script (by hash) and network access to the same origin only.
 */
const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Email deliverability check: SPF, DKIM, DMARC, blacklists and an A–F grade</title>
<meta name="description" content="Check a domain's email deliverability: an A–F grade with SPF, DKIM, DMARC, MX, blacklists, domain age, MTA-STS and BIMI, and what to fix.">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%231d4ed8'/%3E%3Cpath d='M7 11h18v12H7z M8 12l8 6 8-6' fill='none' stroke='white' stroke-width='2.2' stroke-linejoin='round'/%3E%3C/svg%3E">
<style>${CHECKS_PAGE_STYLE}</style>
</head>
<body>
<a class="skip" href="#results">Skip to results</a>
<header class="topbar">
  <div class="topbar-inner">
    <a class="brand" href="/"><span class="brand-mark" aria-hidden="true"><svg width="16" height="16" viewBox="0 0 20 20" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"><path d="M3 6.5h14v9H3z"/><path d="M3.5 7l6.5 5 6.5-5"/></svg></span>Deliverability checks</a>
    <nav aria-label="API">
      <a href="/docs">API docs</a>
      <a href="#about">About</a>
    </nav>
  </div>
</header>
<section class="hero" aria-labelledby="page-title">
  <h1 id="page-title">Will your email reach the inbox?</h1>
  <p>Type a domain to grade its cold email readiness from A to F, with SPF, DKIM, DMARC, MX, blacklists and domain age checked live, and what to fix first.</p>
  <form id="check-form" class="search" action="/" method="get" novalidate aria-busy="false">
    <label for="domain">Domain</label>
    <div class="field">
      <input id="domain" name="domain" type="text" inputmode="url" autocomplete="off" autocapitalize="none" autocorrect="off" spellcheck="false" placeholder="example.com" aria-describedby="domain-hint" maxlength="300">
    </div>
    <button id="submit" class="btn" type="submit"><span class="spinner" aria-hidden="true"></span><span class="label">Check domain</span></button>
    <p class="hint" id="domain-hint">A domain such as <code>example.com</code>; from an email address or a link, its domain is checked. <span class="nowrap">Try <button type="button" data-example="gmail.com">gmail.com</button>.</span></p>
    <p class="hint input-error" id="domain-error" role="alert"></p>
    <p class="hint input-note" id="domain-note" role="status"></p>
  </form>
</section>
<main>
  <div id="live" class="visually-hidden" role="status" aria-live="polite"></div>
  <div id="results" aria-busy="false" tabindex="-1"></div>
  <footer class="about" id="about">
    <p>Every check runs live at the moment you ask, reads only public DNS and registry data, and is never cached. Nothing you type is stored.</p>
    <p>The same checks are a free API with no key: GraphQL at <code>/graphql</code>, REST under <code>/.platform/functions/</code> (see <a href="/tools.json">tools.json</a>) and MCP at <code>/mcp</code>. The <a href="/docs">API reference</a> lists every check and its answer.</p>
  </footer>
</main>
<script>${CHECKS_PAGE_SCRIPT}</script>
</body>
</html>
`;

/** Headers for the page: a strict CSP (this script and stylesheet only, fetch to this origin only). */
export const CHECKS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'content-security-policy': [
    "default-src 'none'",
    `script-src ${sha256(CHECKS_PAGE_SCRIPT)}`,
    // Inline style attributes (bar widths) need 'unsafe-inline'; a hash here would switch it off.
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
};

/** `GET /` and `HEAD /` on the public listener. */
export function checksPageResponse(request: Request): Response {
  return new Response(request.method === 'HEAD' ? null : HTML, { status: 200, headers: CHECKS_PAGE_HEADERS });
}
