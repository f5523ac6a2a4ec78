import type { OpenApiDocument, OpenApiOperation } from '../rest/openapi.js';
import { isJsonSchema, refName, schemaList, stringList, type JsonSchema } from '../operations/graphql-json-schema.js';

/** One line of a field table: `domains[].mailboxes[].local_part`, its type, whether it must be there. */
interface FieldLine {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** Descriptions use `backticks` for names; everything else is text. */
const prose = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/**
 * The reference page at /docs, rendered on the server from the same OpenAPI document that
 * /openapi.json serves, so the two never disagree. No script and no external asset: it opens fast
 * on a phone and works with the strict Content-Security-Policy it is served with.
 */
export function docsPage(document: OpenApiDocument): string {
  const { info, tags } = document;
  const server = document.servers[0]?.url ?? '';
  const schemas = document.components.schemas;
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  const main = operations.filter((o) => !o.op['x-same-as']);
  const alsoPost = new Set(operations.filter((o) => o.op['x-same-as']).map((o) => o.path));

  const nav = tags
    .map((tag) => {
      const items = main.filter((o) => o.op.tags.includes(tag.name));
      if (!items.length) return '';
      return `<li><span class="tag">${escapeHtml(tag.name)}</span><ul>${items
        .map(
          (o) =>
            `<li><a href="#${escapeHtml(o.op.operationId)}"><span class="m m-${o.method.toLowerCase()}">${o.method}</span> <code>${escapeHtml(o.path)}</code></a></li>`,
        )
        .join('')}</ul></li>`;
    })
    .join('');

  const sections = tags
    .map((tag) => {
      const items = main.filter((o) => o.op.tags.includes(tag.name));
      if (!items.length) return '';
      return (
        `<h2 id="tag-${escapeHtml(tag.name.toLowerCase())}">${escapeHtml(tag.name)}</h2>${tag.description ? `<p class="lead">${prose(tag.description)}</p>` : ''}` +
        items.map((o) => operationSection(o.method, o.path, o.op, schemas, server, alsoPost.has(o.path))).join('')
      );
    })
    .join('');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(info.title)} <span class="version">${escapeHtml(info.version)}</span></h1>
<p>${prose(info.description)}</p>
<p class="meta">Base URL <code>${escapeHtml(server)}</code> · Machine-readable: <a href="openapi.json"><code>/openapi.json</code></a> (OpenAPI 3.1)</p>
</header>
<nav aria-label="Operations"><ul>${nav}</ul></nav>
<main>${sections}
<h2 id="errors">Errors</h2>
<p>Every refusal is JSON with a sentence in <code>detail</code>, a stable <code>code</code> and the <code>request_id</code> to quote:</p>
${fieldTable(flatten(schemas.Error ?? {}, schemas))}
</main>
</body>
</html>
`;
}

function operationSection(method: string, path: string, op: OpenApiOperation, schemas: Record<string, JsonSchema>, server: string, alsoPost: boolean): string {
  const parameters = op.parameters ?? [];
  const body = op.requestBody;
  const answer = op.responses['200']?.content?.['application/json']?.schema;
  const errors = Object.entries(op.responses).filter(([status]) => status !== '200');
  const scope = op['x-scope'];
  const facts = [
    scope ? `Scope <span class="scope">${escapeHtml(scope)}</span>` : 'No key needed',
    op['x-rate-limit'] ? `Rate limit ${escapeHtml(String(op['x-rate-limit']))}` : '',
    op['x-mcp-tool'] ? `MCP tool${op['x-mcp-tool'] === op.operationId ? ' and operationId' : ''} <code>${escapeHtml(String(op['x-mcp-tool']))}</code>` : '',
    alsoPost ? 'Also <code>POST</code> with the parameters as a JSON body' : '',
  ].filter(Boolean);

  let html = `<section class="op" id="${escapeHtml(op.operationId)}">
<h3><span class="m m-${method.toLowerCase()}">${method}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p>${prose(op.summary)}</p>
<p class="facts">${facts.join(' · ')}${op['x-mcp-tool'] === op.operationId ? '' : ` · operationId <code class="opid">${escapeHtml(op.operationId)}</code>`}</p>`;
  if (parameters.length) {
    html += `<h4>Parameters</h4>${fieldTable(
      parameters.map((p) => ({
        name: p.name,
        type: `${typeLabel(p.schema, schemas)}, ${p.in}`,
        required: p.required,
        description: p.description,
      })),
    )}`;
  }
  if (body) {
    const schema = body.content['application/json']?.schema ?? {};
    html += `<h4>Body</h4>${fieldTable(flatten(schema, schemas))}`;
  }
  if (answer) html += `<h4>Answer</h4>${fieldTable(flatten(answer, schemas))}`;
  if (errors.length) {
    html += `<h4>Errors</h4><dl class="errors">${errors
      .map(([status, response]) => `<div><dt>${escapeHtml(status)}</dt><dd>${prose(response.description)}</dd></div>`)
      .join('')}</dl>`;
  }
  html += `<h4>Example</h4><pre tabindex="0"><code>${escapeHtml(curlExample(method, path, parameters, body !== undefined, scope, server))}</code></pre>`;
  return `${html}</section>`;
}

function curlExample(
  method: string,
  path: string,
  parameters: { name: string; in: string; required: boolean }[],
  hasBody: boolean,
  scope: string | null | undefined,
  server: string,
): string {
  const sample = (name: string) =>
    name === 'domains'
      ? 'example.com,example.org'
      : name === 'emails'
        ? 'alex@example.com'
        : name === 'host'
          ? 'track.example.com'
          : name === 'input'
            ? 'example.com'
            : name === 'period'
              ? '7d'
              : name === 'workspace_id'
                ? '12'
                : name === 'subscription_id'
                  ? 'sub_123'
                  : 'example.com';
  const url =
    server +
    path.replace(/\{(\w+)\}/g, (_m, name: string) => sample(name)) +
    (() => {
      const query = parameters.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${sample(p.name)}`);
      return query.length ? `?${query.join('&')}` : '';
    })();
  const lines = [`curl${method === 'GET' ? '' : ` -X ${method}`} '${url}'`];
  if (scope) lines.push(`-H "Authorization: Bearer $SERVICE_API_KEY"`);
  for (const p of parameters.filter((q) => q.in === 'header')) lines.push(`-H '${p.name}: order-2026-0001'`);
  if (hasBody) lines.push(`-H 'Content-Type: application/json' -d @body.json`);
  return lines.join(' \\\n  ');
}

function resolve(schema: JsonSchema, schemas: Record<string, JsonSchema>): { schema: JsonSchema; nullable: boolean } {
  let nullable = false;
  let current = schema;
  for (let i = 0; i < 10; i++) {
    if (Array.isArray(current.anyOf)) {
      const parts = schemaList(current.anyOf);
      nullable ||= parts.some((p) => p.type === 'null');
      const other = parts.find((p) => p.type !== 'null');
      if (!other) break;
      current = { ...other, description: current.description ?? other.description };
      continue;
    }
    if (typeof current.$ref === 'string') {
      const target = schemas[refName(current.$ref)] ?? {};
      current = { ...target, description: current.description ?? target.description };
      continue;
    }
    break;
  }
  if (Array.isArray(current.type) && current.type.includes('null')) nullable = true;
  return { schema: current, nullable };
}

function typeLabel(schema: JsonSchema, schemas: Record<string, JsonSchema>): string {
  const { schema: s, nullable } = resolve(schema, schemas);
  const types = (Array.isArray(s.type) ? stringList(s.type) : typeof s.type === 'string' ? [s.type] : []).filter((t) => t !== 'null');
  let label = types.join(' | ') || 'any';
  if (label === 'array') {
    label = `list of ${isJsonSchema(s.items) ? typeLabel(s.items, schemas) : 'any'}`;
  }
  if (s.format) label += ` (${String(s.format)})`;
  if (Array.isArray(s.enum))
    label = `one of ${s.enum
      .filter((v: unknown) => v !== null)
      .map((v) => String(v))
      .join(', ')}`;
  if (typeof s.pattern === 'string') label += ` matching ${s.pattern}`;
  return nullable ? `${label} or null` : label;
}

/** Nested objects and lists of objects become dotted lines: `domains[].mailboxes[].first_name`. */
function flatten(schema: JsonSchema, schemas: Record<string, JsonSchema>, prefix = '', depth = 0): FieldLine[] {
  const { schema: s } = resolve(schema, schemas);
  if (depth > 6) return [];
  const lines: FieldLine[] = [];
  const properties = isJsonSchema(s.properties) ? s.properties : {};
  const required = new Set(stringList(s.required));
  for (const [name, child] of Object.entries(properties)) {
    if (!isJsonSchema(child)) continue;
    const full = prefix ? `${prefix}.${name}` : name;
    const { schema: c } = resolve(child, schemas);
    lines.push({ name: full, type: typeLabel(child, schemas), required: required.has(name), description: String(c.description ?? '') });
    const items = isJsonSchema(c.items) ? resolve(c.items, schemas).schema : undefined;
    if (c.properties) lines.push(...flatten(c, schemas, full, depth + 1));
    else if (items?.properties) lines.push(...flatten(items, schemas, `${full}[]`, depth + 1));
  }
  if (!lines.length && s.additionalProperties !== false) {
    lines.push({ name: prefix || '(object)', type: 'object', required: true, description: String(s.description ?? 'A JSON object.') });
  }
  return lines;
}

function fieldTable(lines: readonly FieldLine[]): string {
  if (!lines.length) return '<p class="none">None.</p>';
  // Focusable, since a wide table scrolls sideways on a phone and the keyboard must reach it (axe: scrollable-region-focusable).
  return `<div class="table" tabindex="0"><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${lines
    .map(
      (line) =>
        `<tr><td><code>${escapeHtml(line.name)}</code>${line.required ? '' : ' <span class="opt">optional</span>'}</td><td>${escapeHtml(line.type)}</td><td>${prose(line.description)}</td></tr>`,
    )
    .join('')}</tbody></table></div>`;
}

const CSS = `
:root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--panel:#f6f8fa;--line:#d8dee4;--accent:#0b5cad;--get:#1a7f37;--post:#0b5cad;--put:#9a6700;--delete:#cf222e}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#161b22;--line:#30363d;--accent:#58a6ff;--get:#3fb950;--post:#58a6ff;--put:#d29922;--delete:#f85149}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header,main,nav{max-width:62rem;margin:0 auto;padding:0 1rem}
header{padding-top:1.5rem}
h1{font-size:1.6rem;margin:.2rem 0}
h2{font-size:1.3rem;margin:2.2rem 0 .4rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:0 0 .4rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
h4{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:1rem 0 .3rem}
a{color:var(--accent)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
code{background:var(--panel);padding:.05em .3em;border-radius:4px;overflow-wrap:anywhere}
pre{background:var(--panel);padding:.75rem;border-radius:6px;overflow-x:auto}
pre code{background:none;padding:0}
pre:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.version{font-size:.8rem;font-weight:500;color:var(--muted);border:1px solid var(--line);border-radius:999px;padding:.1rem .5rem;vertical-align:middle}
.meta,.facts,.lead{color:var(--muted);font-size:.92rem}
nav ul{list-style:none;padding:0;margin:.5rem 0}
nav>ul{columns:2 20rem;column-gap:2rem;border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem}
nav li{margin:.15rem 0;break-inside:avoid}
nav a{text-decoration:none}
.tag{font-weight:600}
.m{display:inline-block;min-width:3.6rem;text-align:center;font-size:.72rem;font-weight:700;border-radius:4px;padding:.1rem .35rem;color:#fff}
.m-get{background:var(--get)}.m-post{background:var(--post)}.m-put{background:var(--put)}.m-delete{background:var(--delete)}
.op{border:1px solid var(--line);border-radius:8px;padding:1rem;margin:1rem 0}
.path{font-size:.95rem}
.scope{font-weight:600;color:var(--fg)}
.opid{font-size:.8em}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
th{font-size:.78rem;color:var(--muted);font-weight:600}
td:first-child{white-space:nowrap}
.opt{font-size:.75rem;color:var(--muted)}
.errors{margin:0}
.errors div{display:flex;gap:.75rem;padding:.2rem 0}
.errors dt{font-weight:700;min-width:2.5rem}
.errors dd{margin:0}
.none{color:var(--muted)}
@media (max-width:40rem){body{font-size:15px}.op{padding:.75rem}
table,tbody,tr,td{display:block}thead{display:none}
tr{padding:.45rem 0;border-bottom:1px solid var(--line)}
td{border:0;padding:.05rem 0}td:first-child{white-space:normal}
td:nth-child(2){color:var(--muted);font-size:.85rem}}
`;
