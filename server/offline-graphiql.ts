/**
 * The GraphQL console at GET /graphql (outside production), built from this file alone: no CDN, so
 * it works offline and behind a firewall. graphql-yoga's GraphiQL loads its scripts, styles and
 * workers from unpkg.com, which a machine without the internet cannot reach (and no GraphiQL
 * package is installed to serve them from). The page runs a query with variables and an optional
 * key, shows the answer and the X-RateLimit-* headers, and lists the schema's root fields by
 * introspection. Its Content-Security-Policy allows nothing but this page and /graphql.
 */
export function offlineGraphiqlResponse(request: Request, url: URL): Response | null {
  if (!(request.headers.get('accept') ?? '').includes('text/html')) return null;
  return new Response(page(url.pathname), {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'",
    },
  });
}

const EXAMPLE = `# Ctrl+Enter runs the query. Pick a root field on the right to start one.
# Account fields need a key (above).
query {
  __typename
}`;

function page(endpoint: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deliverability service GraphQL</title>
<style>
body{margin:0;font:14px system-ui,sans-serif;display:grid;grid-template-columns:1fr 1fr 16rem;grid-template-rows:auto 1fr;height:100vh}
header{grid-column:1/4;padding:.5rem 1rem;background:#1b2b3a;color:#fff;display:flex;gap:1rem;align-items:center}
header input{flex:1;max-width:28rem}
textarea,pre{margin:0;padding:.75rem;font:13px ui-monospace,monospace;border:0;border-right:1px solid #ddd;overflow:auto;resize:none}
#left{display:grid;grid-template-rows:2fr 1fr}
#vars{border-top:1px solid #ddd}
#fields{padding:.5rem;overflow:auto;font-size:12px}
#fields h3{margin:.5rem 0 .25rem}
#fields li{cursor:pointer;list-style:none}
</style></head><body>
<header><strong>GraphQL</strong><button id="run" type="button">Run (Ctrl+Enter)</button>
<label>Key <input id="key" type="password" placeholder="sk_live_... (account fields only)" autocomplete="off"></label><span id="limits"></span></header>
<div id="left"><textarea id="query" spellcheck="false" aria-label="Query">${escapeHtml(EXAMPLE)}</textarea><textarea id="vars" spellcheck="false" aria-label="Variables (JSON)">{}</textarea></div>
<pre id="answer" aria-live="polite"></pre><div id="fields" aria-label="Root fields"></div>
<script>
const endpoint = ${JSON.stringify(endpoint)};
const $ = (id) => document.getElementById(id);
async function send(query, variables) {
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const key = $('key').value.trim();
  if (key) headers.authorization = 'Bearer ' + key;
  const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const limit = response.headers.get('x-ratelimit-remaining');
  if (limit !== null) $('limits').textContent = limit + ' of ' + response.headers.get('x-ratelimit-limit') + ' left';
  return { status: response.status, body: await response.json() };
}
async function run() {
  let variables = {};
  try { variables = JSON.parse($('vars').value || '{}'); } catch { $('answer').textContent = 'The variables are not valid JSON.'; return; }
  $('answer').textContent = '…';
  try {
    const { status, body } = await send($('query').value, variables);
    $('answer').textContent = (status === 200 ? '' : 'HTTP ' + status + '\\n') + JSON.stringify(body, null, 2);
  } catch (error) { $('answer').textContent = String(error); }
}
async function listFields() {
  const { body } = await send('{ __schema { queryType { fields { name description } } mutationType { fields { name description } } } }', {});
  const schema = body && body.data && body.data.__schema;
  if (!schema) return;
  for (const [title, type] of [['Query', schema.queryType], ['Mutation', schema.mutationType]]) {
    if (!type) continue;
    const h = document.createElement('h3'); h.textContent = title; $('fields').append(h);
    const ul = document.createElement('ul');
    for (const f of type.fields) {
      const li = document.createElement('li'); li.textContent = f.name; li.title = f.description || '';
      li.onclick = () => { $('query').value = (title === 'Mutation' ? 'mutation ' : 'query ') + '{\\n  ' + f.name + '\\n}'; };
      ul.append(li);
    }
    $('fields').append(ul);
  }
}
$('run').onclick = run;
document.addEventListener('keydown', (e) => { if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') run(); });
listFields();
</script></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}
