/**
 * The checks page's browser script (web/checks-page.ts inlines it into the one HTML document; no
 * framework). It sends ONE GraphQL query to the same origin's /graphql with one aliased field per
 * check plus the grade (`checkDeliverability`), as our internal frontends do, and renders the answer
 * with DOM calls and textContent only: nothing the API returns is ever parsed as HTML.
 *
 * When the server has no `checkDeliverability` field yet, GraphQL refuses the whole document
 * ("Cannot query field"); the script then asks again without it and says the grade is not available,
 * so the page keeps working with the per-check results.
 *
 * Built for browsers (ES2017, one IIFE) by scripts/build-portal.ts with the portal; the service fills
 * in __SELECTIONS__ and __WIRE_NAMES__ from the schema when it loads the build
 * (web/checks-page-script.ts).
 */

/** Each check's answer fields (printed from the schema's types), by query field. */
declare const __SELECTIONS__: Readonly<Record<string, string>>;
/** camelCase GraphQL field names to their documented snake_case names. */
declare const __WIRE_NAMES__: Readonly<Record<string, string>>;

type Status = 'pass' | 'warn' | 'fail' | 'error';
type Severity = 'error' | 'warning' | 'info';
const STATUSES: readonly Status[] = ['pass', 'warn', 'fail', 'error'];
const isStatus = (value: unknown): value is Status => STATUSES.some((s) => s === value);
const isSeverity = (value: unknown): value is Severity => value === 'error' || value === 'warning' || value === 'info';

/** A check the page runs: graded: part of the A-F grade (its fixes come from the grade); advice: its findings are things to fix. */
interface CheckView {
  readonly key: string;
  readonly name: string;
  readonly field: string;
  readonly blurb: string;
  readonly graded: boolean;
  readonly advice: boolean;
}

/** What the page reads of the answers (wire names); the rest is shown as it comes. */
interface FindingView {
  readonly severity: string;
  readonly code?: string;
  readonly message: string;
}
interface AnswerView {
  readonly status: string;
  readonly summary: string;
  readonly findings?: readonly FindingView[];
  readonly [key: string]: unknown;
}
interface BreakdownView {
  readonly points?: number | null;
  readonly effective_weight?: number | null;
  readonly status: string;
  readonly detail: string;
  readonly cap?: string | null;
}
interface GradeView extends AnswerView {
  readonly domain?: string;
  readonly domain_unicode?: string;
  readonly grade?: string | null;
  readonly score?: number | null;
  readonly caps?: readonly { readonly grade: string; readonly reason: string }[];
  readonly breakdown?: Readonly<Record<string, BreakdownView>>;
  readonly fixes?: readonly { readonly points: number; readonly part: string; readonly caps_grade_at?: string | null; readonly fix: string }[];
}
interface AnswersView {
  grade?: GradeView;
  [key: string]: AnswerView | undefined;
}
interface GraphQLErrorView {
  readonly message?: string;
  readonly path?: readonly unknown[];
  readonly extensions?: { readonly detail?: string; readonly status?: unknown; readonly code?: string };
}
interface GraphQLBody {
  readonly data?: Readonly<Record<string, unknown>> | null;
  readonly errors?: readonly GraphQLErrorView[];
}
interface PostAnswer {
  readonly status: number;
  readonly requestId: string | null;
  /** Seconds to wait, from a refusal's Retry-After header. */
  readonly retryAfter: number | null;
  readonly body: GraphQLBody | null;
  readonly text: string;
}

/** What the person typed, and the domain the page checks for it (the domain of an address or a link). */
interface Typed {
  readonly domain: string;
  /** 'email' or 'link' when the domain was taken out of what was typed; null when it was typed as is. */
  readonly from: 'email' | 'link' | null;
  readonly typed: string;
}

type Child = Node | string | null | undefined | false;
type Children = Child | readonly Child[];
type Attrs = Readonly<Record<string, string | number | boolean | null | undefined>>;

function byId<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`The checks page has no #${id}.`);
  return node;
}

/** The answer body as the server sent it (GraphQL over HTTP: data and errors), or null when it is not JSON. */
function readBody(text: string): GraphQLBody | null {
  const parsed: GraphQLBody | null = JSON.parse(text);
  return parsed !== null && typeof parsed === 'object' ? parsed : null;
}
const isAnswer = (value: unknown): value is AnswerView => isPlain(value) && typeof value.status === 'string';
/** The checks that answered, by alias (a check GraphQL refused is null and left out). */
function readAnswers(value: unknown): AnswersView {
  const out: AnswersView = {};
  if (!isPlain(value)) return out;
  for (const [key, answer] of Object.entries(value)) if (isAnswer(answer)) out[key] = answer;
  return out;
}

// Each check's answer fields (printed from the schema's types) and their documented snake_case names.
const SELECTIONS: Readonly<Record<string, string>> = __SELECTIONS__;
const WIRE_NAMES: Readonly<Record<string, string>> = __WIRE_NAMES__;
function wireKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(wireKeys);
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  Object.keys(value).forEach(function (k) {
    out[Object.prototype.hasOwnProperty.call(WIRE_NAMES, k) ? (WIRE_NAMES[k] ?? k) : k] = wireKeys(value[k]);
  });
  return out;
}
const CHECKS: readonly CheckView[] = [
  // graded: part of the A-F grade (its fixes come from the grade); advice: its findings are things to fix.
  { key: 'spf', name: 'SPF', field: 'checkSpf(domain: $domain)', blurb: 'Which servers may send mail as the domain', graded: true, advice: true },
  { key: 'dkim', name: 'DKIM', field: 'checkDkim(domain: $domain)', blurb: 'Signing keys (26 common selectors scanned)', graded: true, advice: true },
  {
    key: 'dmarc',
    name: 'DMARC',
    field: 'checkDmarc(domain: $domain)',
    blurb: 'What receivers do with mail that fails SPF and DKIM',
    graded: true,
    advice: true,
  },
  { key: 'mx', name: 'MX records', field: 'checkDns(domain: $domain, type: MX)', blurb: 'Where the domain receives mail', graded: true, advice: true },
  {
    key: 'blacklist',
    name: 'Blacklists',
    field: 'checkBlacklist(input: $domain)',
    blurb: 'The domain and its mail servers on public blocklists',
    graded: true,
    advice: true,
  },
  {
    key: 'expiry',
    name: 'Registration',
    field: 'checkDomainExpiry(domain: $domain)',
    blurb: 'Domain age and expiry date (RDAP or WHOIS)',
    graded: true,
    advice: true,
  },
  { key: 'mtaSts', name: 'MTA-STS', field: 'checkMtaSts(domain: $domain)', blurb: 'Encrypted delivery policy and TLS reports', graded: false, advice: true },
  { key: 'bimi', name: 'BIMI', field: 'checkBimi(domain: $domain)', blurb: 'Brand logo shown next to your mail', graded: false, advice: true },
  {
    key: 'nameservers',
    name: 'Name servers',
    field: 'checkNameservers(domains: [$domain])',
    blurb: "Who hosts the domain's DNS",
    graded: false,
    advice: false,
  },
  {
    key: 'provider',
    name: 'Google Workspace',
    field: 'checkProviderDomain(domain: $domain)',
    blurb: 'Evidence the domain is used with Google',
    graded: false,
    advice: false,
  },
];
// Labels for the terse names some answers carry (DMARC's tags, RFC 7489 section 6.3).
const LABELS: Readonly<Record<string, string>> = {
  adkim: 'DKIM alignment (adkim)',
  aspf: 'SPF alignment (aspf)',
  pct: 'Percentage (pct)',
  fo: 'Failure report options (fo)',
  ri: 'Report interval, seconds (ri)',
  np: 'Non-existent subdomain policy (np)',
  t: 'Testing (t)',
  psd: 'Public suffix domain (psd)',
  rua: 'Aggregate reports (rua)',
  ruf: 'Failure reports (ruf)',
  sp: 'Subdomain policy (sp)',
  p: 'Policy (p)',
  v: 'Version (v)',
  ttl: 'TTL',
  uri: 'URI',
  list_id: 'List ID',
  key_bits: 'Key bits',
};
const PART_NAMES: Readonly<Record<string, string>> = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC', mx: 'MX', blacklists: 'Blacklists', domain_age: 'Domain age' };
const STATUS_WORDS: Readonly<Record<Status, string>> = { pass: 'Pass', warn: 'Warning', fail: 'Fail', error: 'Not checked' };
const SEVERITY_WORDS: Readonly<Record<Severity, string>> = { error: 'Error', warning: 'Warning', info: 'Note' };
const SVG = 'http://www.w3.org/2000/svg';
const ICONS: Readonly<Record<string, string>> = {
  pass: 'M5 10.5l3.2 3.2L15 6.8',
  warn: 'M10 5.5v5.5M10 14.2v.3',
  fail: 'M6.5 6.5l7 7M13.5 6.5l-7 7',
  error: 'M7.6 7.6a2.5 2.5 0 1 1 3.4 2.3c-.6.3-1 .8-1 1.5v.4M10 14.4v.2',
  info: 'M10 9v5M10 6.2v.3',
};
const SEVERITY_ICON: Readonly<Record<Severity, string>> = { error: 'fail', warning: 'warn', info: 'info' };

const form = byId('check-form', HTMLFormElement);
const input = byId('domain', HTMLInputElement);
const button = byId('submit', HTMLButtonElement);
const buttonLabel = button.querySelector('.label') ?? button;
const results = byId('results', HTMLElement);
const live = byId('live', HTMLElement);
const inputError = byId('domain-error', HTMLElement);
const inputNote = byId('domain-note', HTMLElement);

let gradeField: boolean | null = null; // null: not known yet; true/false once the server has answered
let current: AbortController | null = null;

function el(tag: string, attrs?: Attrs | null, children?: Children): HTMLElement {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'text') node.textContent = String(value);
      else if (name === 'className') node.className = String(value);
      else node.setAttribute(name, String(value));
    }
  }
  append(node, children);
  return node;
}
function append(node: HTMLElement, children: Children): HTMLElement {
  if (children === null || children === undefined) return node;
  const list: readonly Child[] = Array.isArray(children) ? children : [children];
  list.forEach(function (child) {
    if (child === null || child === undefined || child === false) return;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  });
  return node;
}
function icon(kind: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const circle = document.createElementNS(SVG, 'circle');
  circle.setAttribute('cx', '10');
  circle.setAttribute('cy', '10');
  circle.setAttribute('r', '8.5');
  circle.setAttribute('fill', 'none');
  circle.setAttribute('stroke', 'currentColor');
  circle.setAttribute('stroke-width', '1.6');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', ICONS[kind] ?? ICONS.info ?? '');
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '2');
  path.setAttribute('stroke-linecap', 'round');
  path.setAttribute('stroke-linejoin', 'round');
  svg.appendChild(circle);
  svg.appendChild(path);
  return svg;
}
function pill(status: unknown): HTMLElement {
  const s: Status = isStatus(status) ? status : 'error';
  return el('span', { className: 'pill', 'data-status': s }, [icon(s), STATUS_WORDS[s]]);
}
function humanize(key: string): string {
  const label = Object.prototype.hasOwnProperty.call(LABELS, key) ? LABELS[key] : undefined;
  if (label !== undefined) return label;
  let words = String(key).replace(/_/g, ' ');
  words = words.replace(/\b(spf|dkim|dmarc|mx|ip|ips|url|id|ttl|tls|rpt|dns|rdap|bimi|vmc|svg|ns|rua|ruf|pct|mta|sts)\b/gi, function (w) {
    return w.toUpperCase();
  });
  return words.charAt(0).toUpperCase() + words.slice(1);
}
function isPlain(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

/* ---------- formatted view of any JSON answer ---------- */
function scalarNode(value: unknown): Node {
  if (value === null || value === undefined) return el('span', { className: 'null', text: '—', 'aria-label': 'none' });
  if (typeof value === 'boolean') return document.createTextNode(value ? 'Yes' : 'No');
  if (typeof value === 'string' && /^https?:\/\//.test(value))
    return el('a', { href: value, rel: 'noopener noreferrer nofollow', target: '_blank', text: value });
  return document.createTextNode(String(value));
}
function valueNode(value: unknown, depth: number): Node {
  if (isScalar(value) || typeof value !== 'object' || value === null) return scalarNode(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return el('span', { className: 'null', text: 'None' });
    if (value.every(isScalar))
      return el(
        'ul',
        { className: 'chips' },
        value.map(function (v) {
          return el('li', null, scalarNode(v));
        }),
      );
    if (value.every(isFlatObject)) return tableNode(value);
    if (depth > 5) return el('code', { text: JSON.stringify(value) });
    return el(
      'ul',
      { className: 'items' },
      value.map(function (v) {
        return el('li', null, valueNode(v, depth + 1));
      }),
    );
  }
  if (depth > 5) return el('code', { text: JSON.stringify(value) });
  if (!isPlain(value)) return scalarNode(value);
  const keys = Object.keys(value);
  if (keys.length === 0) return el('span', { className: 'null', text: 'None' });
  return dl(value, keys, depth);
}
function isFlatObject(value: unknown): value is Record<string, unknown> {
  if (!isPlain(value)) return false;
  return Object.keys(value).every(function (k) {
    const v = value[k];
    return isScalar(v) || (Array.isArray(v) && v.every(isScalar));
  });
}
function tableNode(rows: readonly Record<string, unknown>[]): HTMLElement {
  const columns: string[] = [];
  rows.forEach(function (row) {
    Object.keys(row).forEach(function (k) {
      if (columns.indexOf(k) < 0) columns.push(k);
    });
  });
  const head = el(
    'tr',
    null,
    columns.map(function (c) {
      return el('th', { scope: 'col', text: humanize(c) });
    }),
  );
  const body = rows.map(function (row) {
    return el(
      'tr',
      null,
      columns.map(function (c) {
        const v = row[c];
        const text = Array.isArray(v) ? v.join(', ') : String(v);
        return el(
          'td',
          { className: text.length > 40 ? 'long' : 'short' },
          Array.isArray(v) ? (v.length ? text : el('span', { className: 'null', text: '—' })) : scalarNode(v),
        );
      }),
    );
  });
  return el(
    'div',
    { className: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Table, scrolls sideways' },
    el('table', null, [el('thead', null, head), el('tbody', null, body)]),
  );
}
function dl(object: Record<string, unknown>, keys: readonly string[], depth: number): HTMLElement {
  const list = el('dl', { className: 'kv' });
  keys.forEach(function (k) {
    const v = object[k];
    // Nested objects and lists of records get the full width under their label.
    const wide = (isPlain(v) && Object.keys(v).length > 0) || (Array.isArray(v) && v.length > 0 && !v.every(isScalar));
    list.appendChild(el('dt', { className: wide ? 'wide' : null, text: humanize(k) }));
    list.appendChild(el('dd', { className: wide ? 'wide' : null }, valueNode(v, depth + 1)));
  });
  return list;
}

/* ---------- the request ---------- */
function buildQuery(withGrade: boolean): string {
  const select = function (field: string): string {
    return field + ' ' + (SELECTIONS[field.split('(')[0] ?? ''] ?? '');
  };
  const fields = CHECKS.map(function (c) {
    return c.key + ': ' + select(c.field);
  });
  if (withGrade) fields.unshift('grade: ' + select('checkDeliverability(domain: $domain)'));
  return 'query ChecksPage($domain: String!) {\n  ' + fields.join('\n  ') + '\n}';
}
function post(domain: string, withGrade: boolean, signal: AbortSignal | undefined): Promise<PostAnswer> {
  return fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify({ operationName: 'ChecksPage', query: buildQuery(withGrade), variables: { domain: domain } }),
    signal: signal,
  }).then(function (response) {
    return response.text().then(function (text) {
      let body: GraphQLBody | null = null;
      try {
        body = readBody(text);
      } catch {
        body = null;
      }
      const wait = Number(response.headers.get('retry-after'));
      return {
        status: response.status,
        requestId: response.headers.get('x-request-id'),
        retryAfter: Number.isFinite(wait) && wait > 0 ? wait : null,
        body: body,
        text: text,
      };
    });
  });
}
function lacksGradeField(answer: PostAnswer): boolean {
  const errors = answer.body?.errors;
  return (
    Array.isArray(errors) &&
    !answer.body?.data &&
    errors.some(function (e) {
      return /Cannot query field "checkDeliverability"/.test(String(e.message));
    })
  );
}
function runChecks(domain: string, signal: AbortSignal | undefined): Promise<PostAnswer> {
  const first = post(domain, gradeField !== false, signal);
  return first.then(function (answer) {
    if (gradeField !== false && lacksGradeField(answer)) {
      gradeField = false;
      return post(domain, false, signal);
    }
    if (gradeField === null && answer.body && answer.body.data) gradeField = true;
    return answer;
  });
}

/* ---------- rendering ---------- */
function setBusy(busy: boolean, domain: string): void {
  button.disabled = busy;
  form.setAttribute('aria-busy', busy ? 'true' : 'false');
  results.setAttribute('aria-busy', busy ? 'true' : 'false');
  buttonLabel.textContent = busy ? 'Checking…' : 'Check domain';
  if (busy) live.textContent = 'Checking ' + domain + '…';
}
function showLoading(domain: string): void {
  const lines = function (widths: readonly number[]): HTMLElement {
    return el(
      'div',
      { className: 'lines' },
      widths.map(function (w) {
        return el('div', { className: 'skeleton', style: 'width:' + w + '%' });
      }),
    );
  };
  const checks = CHECKS.slice(0, 4).map(function () {
    return el('div', { className: 'card loading-check' }, [
      el('div', { className: 'skeleton', style: 'width:30%;height:16px' }),
      el('div', { className: 'skeleton', style: 'width:88%' }),
      el('div', { className: 'skeleton', style: 'width:64%' }),
    ]);
  });
  results.replaceChildren(
    el('p', { className: 'visually-hidden', text: 'Checking ' + domain + '. This takes a few seconds.' }),
    el('div', { className: 'card loading-card', 'aria-hidden': 'true' }, [el('div', { className: 'skeleton big' }), lines([55, 35, 90, 70])]),
    el('h2', { className: 'section-title', text: 'Checks', 'aria-hidden': 'true' }),
    el('div', { className: 'checks', 'aria-hidden': 'true' }, checks),
  );
}
function errorNotice(title: string, message: string, technical: readonly (string | null)[]): HTMLElement {
  return el('div', { className: 'notice', role: 'alert', id: 'error' }, [
    el('strong', { text: title }),
    el('p', { className: 'error-detail', text: message }),
    technicalDetails(technical),
  ]);
}
/**
 * What only an operator needs (the request id, the API's own words), folded under "Details": the
 * person reads a sentence, and can still quote the id when asking for help.
 */
function technicalDetails(lines: readonly (string | null)[]): HTMLElement | null {
  const shown = lines.filter(function (line): line is string {
    return typeof line === 'string' && line !== '';
  });
  if (shown.length === 0) return null;
  return el('details', { className: 'tech' }, [
    el('summary', { text: 'Details' }),
    el(
      'ul',
      null,
      shown.map(function (line) {
        return el('li', { text: line });
      }),
    ),
  ]);
}
const requestIdLine = (id: string | null): string | null => (id ? 'Request id: ' + id + ' (quote it if you ask us about this check)' : null);
/** A refusal of the whole request, in words for a person; the API's own words and the request id under "Details". */
function showRefusal(typed: Typed, answer: PostAnswer): void {
  const errors = answer.body?.errors ?? [];
  const said: string[] = [];
  let status = answer.status;
  let code: string | null = null;
  errors.forEach(function (e) {
    const ext = e.extensions ?? {};
    const detail = ext.detail || e.message;
    if (typeof ext.status === 'number') status = ext.status;
    if (!code && ext.code) code = ext.code;
    if (detail && said.indexOf(detail) < 0) said.push(detail);
  });
  let title: string;
  let message: string;
  if (status === 400 || status === 422) {
    title = 'That is not a domain we can check';
    message = /IP address/.test(said.join(' '))
      ? '“' + typed.typed + '” is an IP address. Type the domain your mail is sent from, such as example.com.'
      : '“' + typed.typed + '” is not a domain name. Type just the domain, such as example.com: letters, digits and hyphens separated by dots.';
  } else if (status === 429) {
    title = 'Too many checks for now';
    const wait = answer.retryAfter;
    message =
      'You have run many checks in a short time. ' +
      (wait ? 'Try again in ' + (wait < 90 ? wait + ' seconds' : Math.ceil(wait / 60) + ' minutes') + '.' : 'Wait a minute and try again.');
  } else {
    title = 'The checks could not run';
    message =
      status >= 500 || status === 0
        ? 'Something went wrong on our side. Try again in a minute; if it keeps happening, tell us the request id under Details.'
        : 'The checks could not run for ' + typed.domain + '. Try again in a minute.';
  }
  const apiSaid = said.length ? 'The API said: ' + said.join(' ') + (code ? ' (' + code + ')' : '') : null;
  results.replaceChildren(errorNotice(title, message, [apiSaid, requestIdLine(answer.requestId)]));
  live.textContent = title + ': ' + message;
  if (status === 400 || status === 422) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'domain-hint error');
  }
}

function gradeSummary(domain: string, grade: GradeView | null, data: AnswersView): HTMLElement {
  const shown = grade && grade.domain_unicode ? grade.domain_unicode : (grade && grade.domain) || domain;
  if (!grade) {
    return el('section', { className: 'card summary', 'aria-labelledby': 'result-title' }, [
      el('div', { className: 'grade none', 'data-grade': 'none', role: 'img', 'aria-label': 'No grade' }, '–'),
      el('div', null, [el('h2', { id: 'result-title', tabindex: '-1', text: shown }), el('p', { className: 'score', text: 'Grade not available' })]),
      el('p', {
        className: 'sentence',
        id: 'grade-unavailable',
        text: 'The overall A–F grade is not available from this server yet, so each check is shown on its own below.',
      }),
      tally(data),
    ]);
  }
  const letter = grade.grade || '–';
  const caps = Array.isArray(grade.caps) ? grade.caps : [];
  return el('section', { className: 'card summary', 'aria-labelledby': 'result-title' }, [
    el(
      'div',
      {
        className: 'grade' + (grade.grade ? '' : ' none'),
        id: 'grade',
        'data-grade': grade.grade || 'none',
        role: 'img',
        'aria-label': grade.grade ? 'Grade ' + letter : 'No grade',
      },
      letter,
    ),
    el('div', null, [
      el('h2', { id: 'result-title', tabindex: '-1', text: shown }),
      el('p', { className: 'score' }, grade.score === null || grade.score === undefined ? 'No score' : [el('b', { text: String(grade.score) }), ' / 100']),
      pill(grade.status),
    ]),
    el('p', { className: 'sentence', text: grade.summary }),
    // A cap is shown when it is what set the letter (the score alone may already give a lower one).
    caps[0] && grade.grade && caps[0].grade === grade.grade
      ? el('p', { className: 'caps' }, [el('strong', { text: 'Capped at ' + caps[0].grade + ': ' }), caps[0].reason])
      : null,
    tally(data),
  ]);
}
function tally(data: AnswersView): HTMLElement {
  const counts: Record<Status, number> = { pass: 0, warn: 0, fail: 0, error: 0 };
  CHECKS.forEach(function (c) {
    const a = data[c.key];
    if (a && isStatus(a.status)) counts[a.status]++;
  });
  const items = STATUSES.filter(function (s) {
    return counts[s] > 0;
  }).map(function (s) {
    const p = pill(s);
    if (p.lastChild) p.lastChild.textContent = counts[s] + ' ' + STATUS_WORDS[s].toLowerCase();
    return el('li', null, p);
  });
  return el('ul', { className: 'tally', 'aria-label': 'Checks by status' }, items);
}
function breakdownPanel(grade: GradeView): HTMLElement {
  const parts = Object.entries(grade.breakdown ?? {});
  const list = el(
    'ul',
    { className: 'parts' },
    parts.map(function ([part, entry]) {
      const points = entry.points;
      const weight = entry.effective_weight ?? 0;
      const scored = points !== null && points !== undefined;
      const width = scored && weight ? Math.max(0, Math.min(100, Math.round((points / weight) * 100))) : 0;
      const pts = scored ? points.toFixed(1) + ' / ' + weight.toFixed(1) + ' pts' : 'Not scored';
      return el('li', { 'data-part': part }, [
        el('div', { className: 'part-head' }, [el('span', { text: PART_NAMES[part] || humanize(part) }), el('span', { className: 'pts', text: pts })]),
        el(
          'div',
          { className: 'bar', 'data-status': entry.status, role: 'img', 'aria-label': scored ? Math.round(width) + ' percent of its weight' : 'not scored' },
          el('span', { style: 'width:' + width + '%' }),
        ),
        el('p', { className: 'part-detail', text: entry.detail + (entry.cap ? ' Caps the grade at ' + entry.cap + '.' : '') }),
      ]);
    }),
  );
  return el('section', { className: 'card panel', 'aria-labelledby': 'breakdown-title' }, [el('h3', { id: 'breakdown-title', text: 'Breakdown' }), list]);
}
function findingItems(data: AnswersView, graded: boolean): HTMLElement[] {
  const found: { check: string; f: FindingView }[] = [];
  CHECKS.forEach(function (c) {
    const a = data[c.key];
    // A check whose lookup failed ('error') has findings about the lookup, not about the domain.
    if (!c.advice || c.graded !== graded || !a || a.status === 'error' || !Array.isArray(a.findings)) return;
    a.findings.forEach(function (f) {
      if (f.severity === 'error' || f.severity === 'warning') found.push({ check: c.name, f: f });
    });
  });
  found.sort(function (x, y) {
    return (x.f.severity === 'error' ? 0 : 1) - (y.f.severity === 'error' ? 0 : 1);
  });
  return found.map(function (x) {
    return el('li', { 'data-code': x.f.code }, [
      el('div', { className: 'fix-head' }, [
        el('span', { className: 'gain sev-' + x.f.severity, text: isSeverity(x.f.severity) ? SEVERITY_WORDS[x.f.severity] : '' }),
        el('span', { className: 'tag', text: x.check }),
      ]),
      el('p', { className: 'what', text: x.f.message }),
    ]);
  });
}
function fixesPanel(grade: GradeView | null, data: AnswersView): HTMLElement {
  let items: HTMLElement[] = [];
  if (grade && Array.isArray(grade.fixes)) {
    items = grade.fixes.map(function (f) {
      return el('li', null, [
        el('div', { className: 'fix-head' }, [
          el('span', { className: 'gain', text: '+' + Number(f.points).toFixed(1) + ' pts' }),
          el('span', { className: 'tag', text: PART_NAMES[f.part] || humanize(f.part) }),
          f.caps_grade_at ? el('span', { className: 'tag cap', text: 'caps grade at ' + f.caps_grade_at }) : null,
        ]),
        el('p', { className: 'what', text: f.fix }),
      ]);
    });
  } else {
    // Without the grade, the graded checks' own error and warning findings stand in for its fixes.
    items = findingItems(data, true);
  }
  const extra = findingItems(data, false);
  const body = [
    items.length
      ? el('ol', { className: 'fixes', id: 'fixes' }, items)
      : el('p', {
          className: 'empty',
          text: grade
            ? 'Nothing in the grade to fix: every part that was scored earned full marks.'
            : 'Nothing to fix in SPF, DKIM, DMARC, MX, blacklists or registration.',
        }),
    extra.length ? el('h4', { className: 'sub', text: 'Worth doing too (not in the grade)' }) : null,
    extra.length ? el('ol', { className: 'fixes', id: 'extra-fixes' }, extra) : null,
  ];
  return el('section', { className: 'card panel', 'aria-labelledby': 'fixes-title' }, [el('h3', { id: 'fixes-title', text: 'What to fix' }), ...body]);
}
function checkCard(check: CheckView, answer: AnswerView | undefined, error: string | undefined): HTMLElement {
  const id = 'check-' + check.key;
  const head = el('div', { className: 'check-head' }, [
    el('h3', { id: id + '-title', text: check.name }),
    answer ? pill(answer.status) : pill('error'),
    el('p', { className: 'blurb', text: check.blurb }),
  ]);
  if (!answer) {
    return el('article', { className: 'card check', id: id, 'aria-labelledby': id + '-title', 'data-status': 'error' }, [
      head,
      el('div', { className: 'check-body' }, el('p', { className: 'sentence', text: error || 'This check gave no answer.' })),
    ]);
  }
  const findings = Array.isArray(answer.findings) ? answer.findings : [];
  const own: Record<string, unknown> = {};
  Object.entries(answer).forEach(function ([k, v]) {
    if (k !== 'status' && k !== 'summary' && k !== 'findings') own[k] = v;
  });
  const json = JSON.stringify(answer, null, 2);
  const copy = el('button', { type: 'button', className: 'copy', text: 'Copy JSON' });
  copy.addEventListener('click', function () {
    const done = function (ok: boolean): void {
      copy.textContent = ok ? 'Copied' : 'Copy failed';
      setTimeout(function () {
        copy.textContent = 'Copy JSON';
      }, 1600);
    };
    if (navigator.clipboard)
      navigator.clipboard.writeText(json).then(
        function () {
          done(true);
        },
        function () {
          done(false);
        },
      );
    else done(false);
  });
  const details = el('details', { className: 'more' }, [
    el('summary', { text: 'Details' }),
    el('div', { className: 'detail' }, [
      valueNode(own, 0),
      el('div', { className: 'raw' }, [
        el('div', { className: 'raw-head' }, [el('h4', { text: 'Full answer (JSON)' }), copy]),
        el('pre', { className: 'json', tabindex: '0', 'aria-label': check.name + ' answer as JSON', text: json }),
      ]),
    ]),
  ]);
  return el('article', { className: 'card check', id: id, 'aria-labelledby': id + '-title', 'data-status': answer.status }, [
    head,
    el('div', { className: 'check-body' }, [
      el('p', { className: 'sentence', text: answer.summary }),
      findings.length
        ? el(
            'ul',
            { className: 'findings', 'aria-label': check.name + ' findings' },
            findings.map(function (f) {
              const sev: Severity = isSeverity(f.severity) ? f.severity : 'info';
              return el('li', { className: 'finding', 'data-severity': sev }, [
                icon(SEVERITY_ICON[sev]),
                el('span', null, [
                  el('span', { className: 'visually-hidden', text: SEVERITY_WORDS[sev] + ': ' }),
                  f.message,
                  f.code ? el('code', { text: f.code }) : null,
                ]),
              ]);
            }),
          )
        : null,
    ]),
    details,
  ]);
}
function showResults(domain: string, answer: PostAnswer, ms: number): void {
  const data = readAnswers(wireKeys(answer.body?.data ?? {}));
  const errorsByField: Record<string, string> = {};
  (answer.body?.errors ?? []).forEach(function (e) {
    const key = Array.isArray(e.path) ? e.path[0] : null;
    if (typeof key === 'string' && key) errorsByField[key] = e.extensions?.detail || e.message || '';
  });
  const grade = gradeField === false ? null : (data.grade ?? null);
  const nodes: Node[] = [gradeSummary(domain, grade, data)];
  if (gradeField !== false && !data.grade && errorsByField.grade) {
    nodes.push(el('div', { className: 'notice soft', role: 'note' }, [el('strong', { text: 'The grade could not be worked out. ' }), errorsByField.grade]));
  }
  nodes.push(el('h2', { className: 'section-title', text: grade ? 'Grade breakdown and fixes' : 'What to fix' }));
  nodes.push(grade ? el('div', { className: 'grid two' }, [breakdownPanel(grade), fixesPanel(grade, data)]) : fixesPanel(null, data));
  nodes.push(el('h2', { className: 'section-title', text: 'Checks' }));
  nodes.push(
    el(
      'div',
      { className: 'checks' },
      CHECKS.map(function (c) {
        return checkCard(c, data[c.key], errorsByField[c.key]);
      }),
    ),
  );
  nodes.push(el('p', { className: 'timing', text: 'Checked live in ' + (ms / 1000).toFixed(1) + ' s.' }));
  const idDetails = technicalDetails([requestIdLine(answer.requestId)]);
  if (idDetails) nodes.push(idDetails);
  results.replaceChildren(...nodes);
  live.textContent = grade && grade.grade ? 'Results for ' + domain + ': grade ' + grade.grade + '.' : 'Results for ' + domain + ' are ready.';
  const title = document.getElementById('result-title');
  if (title) title.focus({ preventScroll: false });
}

/* ---------- the form ---------- */
/**
 * The domain to check for what was typed: an email address is checked by the part after its @, a
 * link by its host name, as the hint says; anything else goes to the API as typed (which refuses
 * what is not a domain, in words shown by showRefusal).
 */
function domainOf(raw: string): Typed {
  const typed = raw.trim();
  const text = typed.replace(/^mailto:/i, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.indexOf('/') >= 0) {
    try {
      // Without a scheme, read as a link on this page's scheme ("//host/path").
      const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : '//' + text, location.href).hostname.replace(/\.$/, '');
      if (host && host.indexOf('.') > 0) return { domain: host, from: 'link', typed: typed };
    } catch {
      /* not a link after all: the API says what it is */
    }
    return { domain: typed, from: null, typed: typed };
  }
  const at = text.lastIndexOf('@');
  if (at >= 0) {
    const after = text.slice(at + 1).trim();
    if (after) return { domain: after, from: 'email', typed: typed };
  }
  return { domain: typed, from: null, typed: typed };
}

function run(raw: string, push: boolean): void {
  inputError.textContent = '';
  inputNote.textContent = '';
  input.removeAttribute('aria-invalid');
  input.setAttribute('aria-describedby', 'domain-hint');
  const typed = domainOf(raw);
  const domain = typed.domain;
  if (!domain) {
    inputError.textContent = 'Type a domain name, such as example.com.';
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'domain-hint domain-error');
    input.focus();
    return;
  }
  if (typed.from) {
    // The box shows what is checked, and the note says where it came from.
    input.value = domain;
    inputNote.textContent =
      typed.from === 'email'
        ? 'Checking ' + domain + ', the domain of the address ' + typed.typed + '.'
        : 'Checking ' + domain + ', the domain of the link you typed.';
    input.setAttribute('aria-describedby', 'domain-hint domain-note');
  }
  if (current) current.abort();
  const controller = typeof AbortController === 'function' ? new AbortController() : null;
  current = controller;
  if (push) {
    const url = new URL(location.href);
    url.searchParams.set('domain', domain);
    history.pushState({ domain: domain }, '', url.pathname + url.search);
  }
  document.title = domain + ' · Deliverability check';
  setBusy(true, domain);
  showLoading(domain);
  const started = Date.now();
  void runChecks(domain, controller ? controller.signal : undefined)
    .then(
      function (answer) {
        if (current !== controller) return;
        if (answer.body && answer.body.data) showResults(domain, answer, Date.now() - started);
        else showRefusal(typed, answer);
      },
      function (error: unknown) {
        if (current !== controller || (error instanceof Error && error.name === 'AbortError')) return;
        results.replaceChildren(
          errorNotice('Could not reach the checks', 'Check your connection and try again.', [
            'The request to /graphql failed: ' + (error instanceof Error && error.message ? error.message : 'network error') + '.',
          ]),
        );
        live.textContent = 'Could not reach the checks. Check your connection and try again.';
      },
    )
    .then(function () {
      if (current === controller) {
        current = null;
        setBusy(false, domain);
      }
    });
}

form.addEventListener('submit', function (event) {
  event.preventDefault();
  run(input.value.trim(), true);
});
document.querySelectorAll('[data-example]').forEach(function (b) {
  b.addEventListener('click', function () {
    input.value = b.getAttribute('data-example') ?? '';
    run(input.value, true);
  });
});
window.addEventListener('popstate', function () {
  const domain = new URL(location.href).searchParams.get('domain');
  if (domain) {
    input.value = domain;
    run(domain, false);
  }
});
const initial = new URL(location.href).searchParams.get('domain');
if (initial) {
  input.value = initial;
  run(initial.trim(), false);
}
