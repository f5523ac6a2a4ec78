import { checkDeclarations } from '../schema/check-declarations.js';
import { checkSelection, wireNames } from '../schema/check-document.js';
import { declaredSchema } from '../schema/index.js';

/**
 * The checks page's browser script, inlined into the one HTML document (no build step, no
 * framework). It sends ONE GraphQL query to the same origin's /graphql with one aliased field per
 * check plus the grade (`checkDeliverability`), as our internal frontends do, and renders the answer
 * with DOM calls and textContent only: nothing the API returns is ever parsed as HTML.
 *
 * When the server has no `checkDeliverability` field yet, GraphQL refuses the whole document
 * ("Cannot query field"); the script then asks again without it and says the grade is not available,
 * so the page keeps working with the per-check results.
 *
 * Kept as a string in plain ES2017 (no backticks, no "${"), because it is sent as-is to browsers.
 */
const SCRIPT_SOURCE = String.raw`
(function () {
  'use strict';

  // Each check's answer fields (printed from the schema's types) and their documented snake_case names.
  var SELECTIONS = __SELECTIONS__;
  var WIRE_NAMES = __WIRE_NAMES__;
  function wireKeys(value) {
    if (Array.isArray(value)) return value.map(wireKeys);
    if (!value || typeof value !== 'object') return value;
    var out = {};
    Object.keys(value).forEach(function (k) { out[Object.prototype.hasOwnProperty.call(WIRE_NAMES, k) ? WIRE_NAMES[k] : k] = wireKeys(value[k]); });
    return out;
  }
  var CHECKS = [
    // graded: part of the A-F grade (its fixes come from the grade); advice: its findings are things to fix.
    { key: 'spf', name: 'SPF', field: 'checkSpf(domain: $domain)', blurb: 'Which servers may send mail as the domain', graded: true, advice: true },
    { key: 'dkim', name: 'DKIM', field: 'checkDkim(domain: $domain)', blurb: 'Signing keys (26 common selectors scanned)', graded: true, advice: true },
    { key: 'dmarc', name: 'DMARC', field: 'checkDmarc(domain: $domain)', blurb: 'What receivers do with mail that fails SPF and DKIM', graded: true, advice: true },
    { key: 'mx', name: 'MX records', field: 'checkDns(domain: $domain, type: MX)', blurb: 'Where the domain receives mail', graded: true, advice: true },
    { key: 'blacklist', name: 'Blacklists', field: 'checkBlacklist(input: $domain)', blurb: 'The domain and its mail servers on public blocklists', graded: true, advice: true },
    { key: 'expiry', name: 'Registration', field: 'checkDomainExpiry(domain: $domain)', blurb: 'Domain age and expiry date (RDAP or WHOIS)', graded: true, advice: true },
    { key: 'mtaSts', name: 'MTA-STS', field: 'checkMtaSts(domain: $domain)', blurb: 'Encrypted delivery policy and TLS reports', graded: false, advice: true },
    { key: 'bimi', name: 'BIMI', field: 'checkBimi(domain: $domain)', blurb: 'Brand logo shown next to your mail', graded: false, advice: true },
    { key: 'nameservers', name: 'Name servers', field: 'checkNameservers(domains: [$domain])', blurb: 'Who hosts the domain\'s DNS', graded: false, advice: false },
    { key: 'provider', name: 'Google Workspace', field: 'checkProviderDomain(domain: $domain)', blurb: 'Evidence the domain is used with Google', graded: false, advice: false }
  ];
  // Labels for the terse names some answers carry (DMARC's tags, RFC 7489 section 6.3).
  var LABELS = {
    adkim: 'DKIM alignment (adkim)', aspf: 'SPF alignment (aspf)', pct: 'Percentage (pct)', fo: 'Failure report options (fo)',
    ri: 'Report interval, seconds (ri)', np: 'Non-existent subdomain policy (np)', t: 'Testing (t)', psd: 'Public suffix domain (psd)',
    rua: 'Aggregate reports (rua)', ruf: 'Failure reports (ruf)', sp: 'Subdomain policy (sp)', p: 'Policy (p)', v: 'Version (v)',
    ttl: 'TTL', uri: 'URI', list_id: 'List ID', key_bits: 'Key bits'
  };
  var PART_NAMES = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC', mx: 'MX', blacklists: 'Blacklists', domain_age: 'Domain age' };
  var STATUS_WORDS = { pass: 'Pass', warn: 'Warning', fail: 'Fail', error: 'Not checked' };
  var SEVERITY_WORDS = { error: 'Error', warning: 'Warning', info: 'Note' };
  var SVG = 'http://www.w3.org/2000/svg';
  var ICONS = {
    pass: 'M5 10.5l3.2 3.2L15 6.8',
    warn: 'M10 5.5v5.5M10 14.2v.3',
    fail: 'M6.5 6.5l7 7M13.5 6.5l-7 7',
    error: 'M7.6 7.6a2.5 2.5 0 1 1 3.4 2.3c-.6.3-1 .8-1 1.5v.4M10 14.4v.2',
    info: 'M10 9v5M10 6.2v.3'
  };
  var SEVERITY_ICON = { error: 'fail', warning: 'warn', info: 'info' };

  var form = document.getElementById('check-form');
  var input = document.getElementById('domain');
  var button = document.getElementById('submit');
  var buttonLabel = button.querySelector('.label');
  var results = document.getElementById('results');
  var live = document.getElementById('live');
  var inputError = document.getElementById('domain-error');

  var gradeField = null; // null: not known yet; true/false once the server has answered
  var current = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      for (var name in attrs) {
        if (attrs[name] === null || attrs[name] === undefined || attrs[name] === false) continue;
        if (name === 'text') node.textContent = String(attrs[name]);
        else if (name === 'className') node.className = attrs[name];
        else node.setAttribute(name, String(attrs[name]));
      }
    }
    append(node, children);
    return node;
  }
  function append(node, children) {
    if (children === null || children === undefined) return node;
    if (!Array.isArray(children)) children = [children];
    children.forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }
  function icon(kind) {
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 20 20');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    var circle = document.createElementNS(SVG, 'circle');
    circle.setAttribute('cx', '10'); circle.setAttribute('cy', '10'); circle.setAttribute('r', '8.5');
    circle.setAttribute('fill', 'none'); circle.setAttribute('stroke', 'currentColor'); circle.setAttribute('stroke-width', '1.6');
    var path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', ICONS[kind] || ICONS.info);
    path.setAttribute('fill', 'none'); path.setAttribute('stroke', 'currentColor');
    path.setAttribute('stroke-width', '2'); path.setAttribute('stroke-linecap', 'round'); path.setAttribute('stroke-linejoin', 'round');
    svg.appendChild(circle); svg.appendChild(path);
    return svg;
  }
  function pill(status) {
    var s = STATUS_WORDS[status] ? status : 'error';
    return el('span', { className: 'pill', 'data-status': s }, [icon(s), STATUS_WORDS[s]]);
  }
  function humanize(key) {
    if (Object.prototype.hasOwnProperty.call(LABELS, key)) return LABELS[key];
    var words = String(key).replace(/_/g, ' ');
    words = words.replace(/\b(spf|dkim|dmarc|mx|ip|ips|url|id|ttl|tls|rpt|dns|rdap|bimi|vmc|svg|ns|rua|ruf|pct|mta|sts)\b/gi, function (w) { return w.toUpperCase(); });
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  function isPlain(value) { return value !== null && typeof value === 'object' && !Array.isArray(value); }
  function isScalar(value) { return value === null || typeof value !== 'object'; }

  /* ---------- formatted view of any JSON answer ---------- */
  function scalarNode(value) {
    if (value === null || value === undefined) return el('span', { className: 'null', text: '—', 'aria-label': 'none' });
    if (typeof value === 'boolean') return document.createTextNode(value ? 'Yes' : 'No');
    if (typeof value === 'string' && /^https?:\/\//.test(value)) return el('a', { href: value, rel: 'noopener noreferrer nofollow', target: '_blank', text: value });
    return document.createTextNode(String(value));
  }
  function valueNode(value, depth) {
    if (isScalar(value)) return scalarNode(value);
    if (Array.isArray(value)) {
      if (value.length === 0) return el('span', { className: 'null', text: 'None' });
      if (value.every(isScalar)) return el('ul', { className: 'chips' }, value.map(function (v) { return el('li', null, scalarNode(v)); }));
      if (value.every(isFlatObject)) return tableNode(value);
      if (depth > 5) return el('code', { text: JSON.stringify(value) });
      return el('ul', { className: 'items' }, value.map(function (v) { return el('li', null, valueNode(v, depth + 1)); }));
    }
    if (depth > 5) return el('code', { text: JSON.stringify(value) });
    var keys = Object.keys(value);
    if (keys.length === 0) return el('span', { className: 'null', text: 'None' });
    return dl(value, keys, depth);
  }
  function isFlatObject(value) {
    if (!isPlain(value)) return false;
    return Object.keys(value).every(function (k) { var v = value[k]; return isScalar(v) || (Array.isArray(v) && v.every(isScalar)); });
  }
  function tableNode(rows) {
    var columns = [];
    rows.forEach(function (row) { Object.keys(row).forEach(function (k) { if (columns.indexOf(k) < 0) columns.push(k); }); });
    var head = el('tr', null, columns.map(function (c) { return el('th', { scope: 'col', text: humanize(c) }); }));
    var body = rows.map(function (row) {
      return el('tr', null, columns.map(function (c) {
        var v = row[c];
        var text = Array.isArray(v) ? v.join(', ') : String(v);
        return el('td', { className: text.length > 40 ? 'long' : 'short' }, Array.isArray(v) ? (v.length ? text : el('span', { className: 'null', text: '—' })) : scalarNode(v));
      }));
    });
    return el('div', { className: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Table, scrolls sideways' }, el('table', null, [el('thead', null, head), el('tbody', null, body)]));
  }
  function dl(object, keys, depth) {
    var list = el('dl', { className: 'kv' });
    keys.forEach(function (k) {
      var v = object[k];
      // Nested objects and lists of records get the full width under their label.
      var wide = (isPlain(v) && Object.keys(v).length > 0) || (Array.isArray(v) && v.length > 0 && !v.every(isScalar));
      list.appendChild(el('dt', { className: wide ? 'wide' : null, text: humanize(k) }));
      list.appendChild(el('dd', { className: wide ? 'wide' : null }, valueNode(v, depth + 1)));
    });
    return list;
  }

  /* ---------- the request ---------- */
  function buildQuery(withGrade) {
    var select = function (field) { return field + ' ' + SELECTIONS[field.split('(')[0]]; };
    var fields = CHECKS.map(function (c) { return c.key + ': ' + select(c.field); });
    if (withGrade) fields.unshift('grade: ' + select('checkDeliverability(domain: $domain)'));
    return 'query ChecksPage($domain: String!) {\n  ' + fields.join('\n  ') + '\n}';
  }
  function post(domain, withGrade, signal) {
    return fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ operationName: 'ChecksPage', query: buildQuery(withGrade), variables: { domain: domain } }),
      signal: signal
    }).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = JSON.parse(text); } catch (e) { body = null; }
        return { status: response.status, requestId: response.headers.get('x-request-id'), body: body, text: text };
      });
    });
  }
  function lacksGradeField(answer) {
    var errors = answer.body && answer.body.errors;
    return Array.isArray(errors) && !answer.body.data && errors.some(function (e) {
      return /Cannot query field "checkDeliverability"/.test(String(e && e.message));
    });
  }
  function runChecks(domain, signal) {
    var first = post(domain, gradeField !== false, signal);
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
  function setBusy(busy, domain) {
    button.disabled = busy;
    form.setAttribute('aria-busy', busy ? 'true' : 'false');
    results.setAttribute('aria-busy', busy ? 'true' : 'false');
    buttonLabel.textContent = busy ? 'Checking…' : 'Check domain';
    if (busy) live.textContent = 'Checking ' + domain + '…';
  }
  function showLoading(domain) {
    var lines = function (widths) { return el('div', { className: 'lines' }, widths.map(function (w) { return el('div', { className: 'skeleton', style: 'width:' + w + '%' }); })); };
    var checks = CHECKS.slice(0, 4).map(function () { return el('div', { className: 'card loading-check' }, [el('div', { className: 'skeleton', style: 'width:30%;height:16px' }), el('div', { className: 'skeleton', style: 'width:88%' }), el('div', { className: 'skeleton', style: 'width:64%' })]); });
    results.replaceChildren(
      el('p', { className: 'visually-hidden', text: 'Checking ' + domain + '. This takes a few seconds.' }),
      el('div', { className: 'card loading-card', 'aria-hidden': 'true' }, [el('div', { className: 'skeleton big' }), lines([55, 35, 90, 70])]),
      el('h2', { className: 'section-title', text: 'Checks', 'aria-hidden': 'true' }),
      el('div', { className: 'checks', 'aria-hidden': 'true' }, checks)
    );
  }
  function errorNotice(title, detail, meta) {
    return el('div', { className: 'notice', role: 'alert', id: 'error' }, [
      el('strong', { text: title }),
      el('p', { className: 'error-detail', text: detail }),
      meta ? el('p', { className: 'meta', text: meta }) : null
    ]);
  }
  function showRefusal(domain, answer) {
    var errors = (answer.body && Array.isArray(answer.body.errors)) ? answer.body.errors : [];
    var seen = {};
    var details = [];
    var status = answer.status;
    var code = null;
    errors.forEach(function (e) {
      var ext = (e && e.extensions) || {};
      var detail = ext.detail || (e && e.message) || 'The API refused the request.';
      if (typeof ext.status === 'number') status = ext.status;
      if (!code && ext.code) code = ext.code;
      if (!seen[detail]) { seen[detail] = true; details.push(detail); }
    });
    if (details.length === 0) details.push(answer.text ? answer.text.slice(0, 400) : 'The API gave an empty answer.');
    var title = status === 400 ? 'That is not a domain we can check' : status === 429 ? 'Too many checks for now' : 'The checks could not run';
    var meta = ['HTTP ' + status, code, answer.requestId ? 'request id ' + answer.requestId : null].filter(Boolean).join(' · ');
    results.replaceChildren(errorNotice(title, details.join(' '), meta));
    live.textContent = title + ': ' + details[0];
    if (status === 400) { input.setAttribute('aria-invalid', 'true'); input.setAttribute('aria-describedby', 'domain-hint error'); }
  }

  function gradeSummary(domain, grade, data) {
    var shown = grade && grade.domain_unicode ? grade.domain_unicode : (grade && grade.domain) || domain;
    if (!grade) {
      return el('section', { className: 'card summary', 'aria-labelledby': 'result-title' }, [
        el('div', { className: 'grade none', 'data-grade': 'none', role: 'img', 'aria-label': 'No grade' }, '–'),
        el('div', null, [
          el('h2', { id: 'result-title', tabindex: '-1', text: shown }),
          el('p', { className: 'score', text: 'Grade not available' })
        ]),
        el('p', { className: 'sentence', id: 'grade-unavailable', text: 'The overall A–F grade is not available from this server yet, so each check is shown on its own below.' }),
        tally(data)
      ]);
    }
    var letter = grade.grade || '–';
    var caps = Array.isArray(grade.caps) ? grade.caps : [];
    return el('section', { className: 'card summary', 'aria-labelledby': 'result-title' }, [
      el('div', { className: 'grade' + (grade.grade ? '' : ' none'), id: 'grade', 'data-grade': grade.grade || 'none', role: 'img', 'aria-label': grade.grade ? 'Grade ' + letter : 'No grade' }, letter),
      el('div', null, [
        el('h2', { id: 'result-title', tabindex: '-1', text: shown }),
        el('p', { className: 'score' }, grade.score === null || grade.score === undefined ? 'No score' : [el('b', { text: String(grade.score) }), ' / 100']),
        pill(grade.status)
      ]),
      el('p', { className: 'sentence', text: grade.summary }),
      // A cap is shown when it is what set the letter (the score alone may already give a lower one).
      caps.length && grade.grade && caps[0].grade === grade.grade ? el('p', { className: 'caps' }, [el('strong', { text: 'Capped at ' + caps[0].grade + ': ' }), caps[0].reason]) : null,
      tally(data)
    ]);
  }
  function tally(data) {
    var counts = { pass: 0, warn: 0, fail: 0, error: 0 };
    CHECKS.forEach(function (c) { var a = data[c.key]; if (a && counts[a.status] !== undefined) counts[a.status]++; });
    var items = ['pass', 'warn', 'fail', 'error'].filter(function (s) { return counts[s] > 0; }).map(function (s) {
      var p = pill(s);
      p.lastChild.textContent = counts[s] + ' ' + STATUS_WORDS[s].toLowerCase();
      return el('li', null, p);
    });
    return el('ul', { className: 'tally', 'aria-label': 'Checks by status' }, items);
  }
  function breakdownPanel(grade) {
    var parts = Object.keys(grade.breakdown || {});
    var list = el('ul', { className: 'parts' }, parts.map(function (part) {
      var entry = grade.breakdown[part];
      var scored = entry.points !== null && entry.points !== undefined;
      var width = scored && entry.effective_weight ? Math.max(0, Math.min(100, Math.round((entry.points / entry.effective_weight) * 100))) : 0;
      var pts = scored ? entry.points.toFixed(1) + ' / ' + entry.effective_weight.toFixed(1) + ' pts' : 'Not scored';
      return el('li', { 'data-part': part }, [
        el('div', { className: 'part-head' }, [el('span', { text: PART_NAMES[part] || humanize(part) }), el('span', { className: 'pts', text: pts })]),
        el('div', { className: 'bar', 'data-status': entry.status, role: 'img', 'aria-label': scored ? Math.round(width) + ' percent of its weight' : 'not scored' }, el('span', { style: 'width:' + width + '%' })),
        el('p', { className: 'part-detail', text: entry.detail + (entry.cap ? ' Caps the grade at ' + entry.cap + '.' : '') })
      ]);
    }));
    return el('section', { className: 'card panel', 'aria-labelledby': 'breakdown-title' }, [el('h3', { id: 'breakdown-title', text: 'Breakdown' }), list]);
  }
  function findingItems(data, graded) {
    var found = [];
    CHECKS.forEach(function (c) {
      var a = data[c.key];
      // A check whose lookup failed ('error') has findings about the lookup, not about the domain.
      if (!c.advice || c.graded !== graded || !a || a.status === 'error' || !Array.isArray(a.findings)) return;
      a.findings.forEach(function (f) { if (f.severity === 'error' || f.severity === 'warning') found.push({ check: c.name, f: f }); });
    });
    found.sort(function (x, y) { return (x.f.severity === 'error' ? 0 : 1) - (y.f.severity === 'error' ? 0 : 1); });
    return found.map(function (x) {
      return el('li', { 'data-code': x.f.code }, [
        el('div', { className: 'fix-head' }, [el('span', { className: 'gain sev-' + x.f.severity, text: SEVERITY_WORDS[x.f.severity] }), el('span', { className: 'tag', text: x.check })]),
        el('p', { className: 'what', text: x.f.message })
      ]);
    });
  }
  function fixesPanel(grade, data) {
    var items = [];
    if (grade && Array.isArray(grade.fixes)) {
      items = grade.fixes.map(function (f) {
        return el('li', null, [
          el('div', { className: 'fix-head' }, [
            el('span', { className: 'gain', text: '+' + Number(f.points).toFixed(1) + ' pts' }),
            el('span', { className: 'tag', text: PART_NAMES[f.part] || humanize(f.part) }),
            f.caps_grade_at ? el('span', { className: 'tag cap', text: 'caps grade at ' + f.caps_grade_at }) : null
          ]),
          el('p', { className: 'what', text: f.fix })
        ]);
      });
    } else {
      // Without the grade, the graded checks' own error and warning findings stand in for its fixes.
      items = findingItems(data, true);
    }
    var extra = findingItems(data, false);
    var body = [
      items.length ? el('ol', { className: 'fixes', id: 'fixes' }, items)
        : el('p', { className: 'empty', text: grade ? 'Nothing in the grade to fix: every part that was scored earned full marks.' : 'Nothing to fix in SPF, DKIM, DMARC, MX, blacklists or registration.' }),
      extra.length ? el('h4', { className: 'sub', text: 'Worth doing too (not in the grade)' }) : null,
      extra.length ? el('ol', { className: 'fixes', id: 'extra-fixes' }, extra) : null
    ];
    return el('section', { className: 'card panel', 'aria-labelledby': 'fixes-title' }, [el('h3', { id: 'fixes-title', text: 'What to fix' })].concat(body));
  }
  function checkCard(check, answer, error) {
    var id = 'check-' + check.key;
    var head = el('div', { className: 'check-head' }, [
      el('h3', { id: id + '-title', text: check.name }),
      answer ? pill(answer.status) : pill('error'),
      el('p', { className: 'blurb', text: check.blurb })
    ]);
    if (!answer) {
      return el('article', { className: 'card check', id: id, 'aria-labelledby': id + '-title', 'data-status': 'error' }, [
        head, el('div', { className: 'check-body' }, el('p', { className: 'sentence', text: error || 'This check gave no answer.' }))
      ]);
    }
    var findings = Array.isArray(answer.findings) ? answer.findings : [];
    var own = {};
    Object.keys(answer).forEach(function (k) { if (k !== 'status' && k !== 'summary' && k !== 'findings') own[k] = answer[k]; });
    var json = JSON.stringify(answer, null, 2);
    var copy = el('button', { type: 'button', className: 'copy', text: 'Copy JSON' });
    copy.addEventListener('click', function () {
      var done = function (ok) { copy.textContent = ok ? 'Copied' : 'Copy failed'; setTimeout(function () { copy.textContent = 'Copy JSON'; }, 1600); };
      if (navigator.clipboard) navigator.clipboard.writeText(json).then(function () { done(true); }, function () { done(false); });
      else done(false);
    });
    var details = el('details', { className: 'more' }, [
      el('summary', { text: 'Details' }),
      el('div', { className: 'detail' }, [
        valueNode(own, 0),
        el('div', { className: 'raw' }, [
          el('div', { className: 'raw-head' }, [el('h4', { text: 'Full answer (JSON)' }), copy]),
          el('pre', { className: 'json', tabindex: '0', 'aria-label': check.name + ' answer as JSON', text: json })
        ])
      ])
    ]);
    return el('article', { className: 'card check', id: id, 'aria-labelledby': id + '-title', 'data-status': answer.status }, [
      head,
      el('div', { className: 'check-body' }, [
        el('p', { className: 'sentence', text: answer.summary }),
        findings.length ? el('ul', { className: 'findings', 'aria-label': check.name + ' findings' }, findings.map(function (f) {
          var sev = SEVERITY_WORDS[f.severity] ? f.severity : 'info';
          return el('li', { className: 'finding', 'data-severity': sev }, [
            icon(SEVERITY_ICON[sev]),
            el('span', null, [el('span', { className: 'visually-hidden', text: SEVERITY_WORDS[sev] + ': ' }), f.message, f.code ? el('code', { text: f.code }) : null])
          ]);
        })) : null
      ]),
      details
    ]);
  }
  function showResults(domain, answer, ms) {
    var data = wireKeys(answer.body.data || {});
    var errorsByField = {};
    (answer.body.errors || []).forEach(function (e) {
      var key = e && Array.isArray(e.path) ? e.path[0] : null;
      if (key) errorsByField[key] = (e.extensions && e.extensions.detail) || e.message;
    });
    var grade = gradeField === false ? null : (data.grade || null);
    var nodes = [gradeSummary(domain, grade, data)];
    if (gradeField !== false && !data.grade && errorsByField.grade) {
      nodes.push(el('div', { className: 'notice soft', role: 'note' }, [el('strong', { text: 'The grade could not be worked out. ' }), errorsByField.grade]));
    }
    nodes.push(el('h2', { className: 'section-title', text: grade ? 'Grade breakdown and fixes' : 'What to fix' }));
    nodes.push(grade ? el('div', { className: 'grid two' }, [breakdownPanel(grade), fixesPanel(grade, data)]) : fixesPanel(null, data));
    nodes.push(el('h2', { className: 'section-title', text: 'Checks' }));
    nodes.push(el('div', { className: 'checks' }, CHECKS.map(function (c) { return checkCard(c, data[c.key], errorsByField[c.key]); })));
    nodes.push(el('p', { className: 'timing', text: 'Checked live in ' + (ms / 1000).toFixed(1) + ' s' + (answer.requestId ? ' · request id ' + answer.requestId : '') }));
    results.replaceChildren.apply(results, nodes);
    live.textContent = grade && grade.grade ? 'Results for ' + domain + ': grade ' + grade.grade + '.' : 'Results for ' + domain + ' are ready.';
    var title = document.getElementById('result-title');
    if (title) title.focus({ preventScroll: false });
  }

  /* ---------- the form ---------- */
  function run(domain, push) {
    inputError.textContent = '';
    input.removeAttribute('aria-invalid');
    input.setAttribute('aria-describedby', 'domain-hint');
    if (!domain) {
      inputError.textContent = 'Type a domain name, such as example.com.';
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', 'domain-hint domain-error');
      input.focus();
      return;
    }
    if (current) current.abort();
    var controller = typeof AbortController === 'function' ? new AbortController() : null;
    current = controller;
    if (push) {
      var url = new URL(location.href);
      url.searchParams.set('domain', domain);
      history.pushState({ domain: domain }, '', url.pathname + url.search);
    }
    document.title = domain + ' · Deliverability check';
    setBusy(true, domain);
    showLoading(domain);
    var started = Date.now();
    runChecks(domain, controller ? controller.signal : undefined).then(function (answer) {
      if (current !== controller) return;
      if (answer.body && answer.body.data) showResults(domain, answer, Date.now() - started);
      else showRefusal(domain, answer);
    }, function (error) {
      if (current !== controller || (error && error.name === 'AbortError')) return;
      results.replaceChildren(errorNotice('Could not reach the checks API', 'The request to /graphql failed (' + (error && error.message ? error.message : 'network error') + '). Check your connection and try again.', null));
      live.textContent = 'Could not reach the checks API.';
    }).then(function () {
      if (current === controller) { current = null; setBusy(false, domain); }
    });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    run(input.value.trim(), true);
  });
  Array.prototype.forEach.call(document.querySelectorAll('[data-example]'), function (b) {
    b.addEventListener('click', function () { input.value = b.getAttribute('data-example'); run(input.value, true); });
  });
  window.addEventListener('popstate', function () {
    var domain = new URL(location.href).searchParams.get('domain');
    if (domain) { input.value = domain; run(domain, false); }
  });
  var initial = new URL(location.href).searchParams.get('domain');
  if (initial) { input.value = initial; run(initial.trim(), false); }
})();
`;

/** The script with the check selections filled in from the schema (no aliases: a query holds at most 40). */
export const CHECKS_PAGE_SCRIPT = SCRIPT_SOURCE.replace(
  '__SELECTIONS__',
  JSON.stringify(Object.fromEntries(checkDeclarations.map((d) => [d.field, checkSelection(declaredSchema, d)]))),
).replace('__WIRE_NAMES__', JSON.stringify(wireNames(declaredSchema)));
