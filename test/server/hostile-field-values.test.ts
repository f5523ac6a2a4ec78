import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  Kind,
  parse,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { operationTable, type OperationRow } from '../../operations/operation-table.js';
import { loadDocument } from '../../operations/operation-document.js';
import { camelToSnake } from '../../operations/describe-input-error.js';
import { publicSchema, schema } from '../../schema/index.js';
import { isSecretInput } from '../../schema/secret-input-extension.js';
import { firstVariableProblem, variableProblemToApiError } from '../../server/refuse-bad-variables.js';
import { configureLog, flushLog } from '../../observability/log.js';
import { startTestService, type TestService } from '../support/test-service.js';

// Issue 32: a value of a megabyte in a field of the wrong type froze the process (a regex over
// graphql-js's message, which held the value twice), and a refusal echoed the whole input, secrets
// included. Every field of every operation of the table gets such a value through REST, MCP and
// /graphql; each answers a short 4xx. The doors run in-process (socketless): the listener's 1 MiB
// body limit would otherwise answer 413 before the value reached anything.
const MIB = 1 << 20;
const huge = (size = MIB) => 'a'.repeat(size);
/** A run of the value in an answer: a refusal may quote the start of what was sent, never all of it. */
const ECHO = 'a'.repeat(1000);

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ socketless: true, rateLimits: { read: 1_000_000, change: 1_000_000, public: 1_000_000 } });
}, 60_000);
afterAll(async () => {
  await service?.close();
});

/** A value GraphQL refuses for this type, holding the huge text: a list where one value is wanted, text where an object or number is. */
function wrongFor(type: GraphQLInputType, text: string): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [[text]];
  const named = getNamedType(nullable);
  if (isInputObjectType(named)) return text;
  if (isEnumType(named) || named.name === 'String' || named.name === 'ID') return [text];
  return text;
}

interface Case {
  readonly row: OperationRow;
  /** The field as REST and MCP name it (snake_case), and as GraphQL does. */
  readonly wire: string;
  /** The variables /graphql gets. */
  readonly variables: Record<string, unknown>;
  readonly value: unknown;
  /** A path or query parameter, sent as text on REST. */
  readonly param?: 'path' | 'query';
  /**
   * A text parameter: a list of texts joins into one (a comma-separated list), so the value may be
   * well-formed text, and a read may answer it (no reports for that domain): never a 5xx, never an echo.
   */
  readonly text?: boolean;
}

function operationOf(row: OperationRow): OperationDefinitionNode {
  const { source } = loadDocument(row.document);
  return parse(source).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
}

/**
 * One case per input field type of each row (the "every field type of every operation"): the
 * fields of its body's input type and its other variables, one per GraphQL type and place (a second
 * String field of the same body runs the same code as the first).
 */
function casesOf(row: OperationRow, text: string): Case[] {
  const rowSchema: GraphQLSchema = row.listener === 'public' ? publicSchema : schema;
  const cases: Case[] = [];
  const seen = new Set<string>();
  const once = (key: string) => !seen.has(key) && Boolean(seen.add(key));
  for (const definition of operationOf(row).variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(rowSchema, definition.type) as GraphQLInputType;
    const named = getNamedType(type);
    if (name === row.bodyVariable && isInputObjectType(named)) {
      for (const field of Object.values(named.getFields())) {
        if (!once(`body ${String(field.type)}`)) continue;
        const value = wrongFor(field.type, text);
        cases.push({ row, wire: camelToSnake(field.name), variables: { [name]: { [field.name]: value } }, value });
      }
      continue;
    }
    if (row.headerVariables?.some((h) => h.variable === name)) continue;
    const param = row.params.find((p) => p.name === camelToSnake(name) || p.name === name);
    if (!once(`${param?.in ?? 'variable'} ${param?.type ?? ''} ${String(type)}`)) continue;
    const value = wrongFor(type, text);
    cases.push({
      row,
      wire: param?.name ?? camelToSnake(name),
      variables: { [name]: value },
      value,
      ...(param && param.in !== 'body' ? { param: param.in } : {}),
      ...(param?.type === 'string' ? { text: true } : {}),
    });
  }
  return cases;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'idempotency-key': 'hostile-0001' };

/** The REST request of a case: a path or query parameter as text, any other field in a JSON body. */
function rest(c: Case): Promise<Response> {
  const asText = typeof c.value === 'string' ? c.value : JSON.stringify(c.value);
  const path = c.row.path.replace(/\{(\w+)\}/g, (_m, p: string) => (p === c.wire && c.param === 'path' ? encodeURIComponent(asText) : '1'));
  const call = c.row.listener === 'public' ? service.pub.bind(service) : service.api.bind(service);
  if (c.row.method === 'GET')
    return call(c.param === 'query' ? `${path}?${new URLSearchParams({ [c.wire]: asText })}` : path, { method: 'GET', headers: HEADERS });
  const body = c.param === 'path' ? {} : { [c.wire]: c.value };
  return call(path, { method: c.row.method, headers: HEADERS, body: JSON.stringify(body) });
}

function mcp(c: Case): Promise<Response> {
  const call = c.row.listener === 'public' ? service.pub.bind(service) : service.api.bind(service);
  const args = { [c.wire]: c.value, ...(c.row.headerVariables?.length ? { idempotency_key: 'hostile-0001' } : {}) };
  return call('/mcp', {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: c.row.name, arguments: args } }),
  });
}

function graphqlDoor(c: Case): Promise<Response> {
  const call = c.row.listener === 'public' ? service.pub.bind(service) : service.api.bind(service);
  const { source, operationName } = loadDocument(c.row.document);
  return call('/graphql', { method: 'POST', headers: HEADERS, body: JSON.stringify({ query: source, operationName, variables: c.variables }) });
}

/** The status a door answered: MCP answers a refusal as a tool error carrying it. */
async function answerOf(door: 'rest' | 'mcp' | 'graphql', response: Response): Promise<{ status: number; text: string }> {
  const text = await response.text();
  if (door === 'mcp' && response.status === 200) {
    const message = JSON.parse(text) as { result?: { isError?: boolean; content?: { text: string }[] } };
    const inner = message.result?.isError ? (JSON.parse(message.result.content?.[0]?.text ?? '{}') as { status?: number }) : { status: 200 };
    return { status: inner.status ?? 200, text };
  }
  return { status: response.status, text };
}

describe('a megabyte of word characters in any field, through every door', () => {
  const rows = operationTable.filter((row) => casesOf(row, 'x').length > 0);
  const text = huge();

  it.each(rows.map((row) => [row.name, row] as const))(
    '%s: each field refused with a short 4xx on REST, MCP and /graphql (a text parameter may be answered)',
    async (_name, row) => {
      const answers: { case: string; status: number; refused: boolean; length: number; echoes: boolean }[] = [];
      for (const c of casesOf(row, text)) {
        const sent = await Promise.all([
          rest(c).then((r) => answerOf('rest', r)),
          mcp(c).then((r) => answerOf('mcp', r)),
          graphqlDoor(c).then((r) => answerOf('graphql', r)),
        ]);
        for (const [i, a] of sent.entries()) {
          answers.push({
            case: `${['rest', 'mcp', 'graphql'][i]} ${c.wire}`,
            status: a.status,
            refused: a.status >= 400 && a.status < 500 ? true : c.text === true && a.status < 400,
            length: a.text.length,
            echoes: a.text.includes(ECHO),
          });
        }
      }
      expect(answers.length).toBeGreaterThan(0);
      for (const a of answers)
        expect({ case: a.case, refused: a.refused, echoes: a.echoes, short: a.length < 4096 }).toEqual({
          case: a.case,
          refused: true,
          echoes: false,
          short: true,
        });
    },
  );

  it('a keyless check sent while the issue\'s request (a list of a megabyte for "sku") runs is answered before that request is', async () => {
    const preview = operationTable.find((r) => r.name === 'preview_order')!;
    const c: Case = { row: preview, wire: 'sku', variables: { order: { sku: [text] } }, value: [text] };
    const order: string[] = [];
    const hostile = [rest(c), mcp(c), graphqlDoor(c)].map((p) => p.then(async (r) => (await r.text(), order.push('hostile'), r.status)));
    const check = service.pub('/readyz').then(async (r) => (await r.text(), order.push('check'), r.status));
    const [statuses, checked] = await Promise.all([Promise.all(hostile), check]);
    expect(checked).toBe(200);
    expect(statuses).toEqual([422, 200, 422]);
    expect(order.indexOf('check')).toBeLessThan(order.lastIndexOf('hostile'));
  });

  it('a megabyte written into the query itself, in an argument of the wrong type: a 400 quoting its first 40 characters', async () => {
    const response = await service.api('/graphql', {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ query: `{ events(limit: ${JSON.stringify(text)}) { __typename } }` }),
    });
    const answer = await response.text();
    expect(response.status).toBe(400);
    // The literal as printed: its opening quote and 39 characters.
    expect(answer).toContain(`"${'a'.repeat(39)}…`);
    expect(answer).not.toContain('a'.repeat(40));
    expect(answer.length).toBeLessThan(4096);
  });

  it('the translation reads no text a caller sent through a regex: none runs over the value at 1 MiB or 2 MiB', () => {
    const preview = operationTable.find((r) => r.name === 'preview_order')!;
    const { source, operationName } = loadDocument(preview.document);
    const document = parse(source);
    const longest = (size: number) => {
      const seen: number[] = [];
      // oxlint-disable-next-line typescript/unbound-method -- the engine's own exec, called below with its regex as `this`
      const exec = RegExp.prototype.exec;
      const spy = vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, input: string) {
        seen.push(String(input).length);
        return exec.call(this, input);
      });
      try {
        for (const variables of [{ order: { sku: [huge(size)] } }, { order: { sku: 'x', domains: huge(size) } }, { order: { [huge(size)]: 1 } }]) {
          const problem = firstVariableProblem(schema, document, operationName, variables);
          expect(problem).not.toBeNull();
          const error = variableProblemToApiError(problem!, 'rest', 'api');
          expect(error.detail.length).toBeLessThan(300);
        }
      } finally {
        spy.mockRestore();
      }
      return Math.max(0, ...seen);
    };
    // The type and field names it words are read, never the value: the same small work at either size.
    expect(longest(MIB)).toBeLessThan(100);
    expect(longest(2 * MIB)).toBe(longest(MIB));
  });
});

describe('secret fields never echo (marked in the schema)', () => {
  const SECRET = 'c2VjcmV0LXRzaWcta2V5LW5ldmVyLXNob3du';
  /** The input fields the schema marks secret, by type: DnsConnectionInput.secret, .apiToken, ChangePasswordInput's passwords. */
  const marked = Object.values(schema.getTypeMap())
    .filter(isInputObjectType)
    .flatMap((type) =>
      Object.values(type.getFields())
        .filter((f) => isSecretInput(f.extensions))
        .map((f) => ({ type: type.name, field: f.name })),
    );

  it('the schema marks the TSIG secret, the API token and both passwords', () => {
    expect(marked.map((m) => `${m.type}.${m.field}`).sort()).toEqual([
      'ChangePasswordInput.currentPassword',
      'ChangePasswordInput.newPassword',
      'DnsConnectionInput.apiToken',
      'DnsConnectionInput.secret',
    ]);
  });

  it('each secret field sent wrongly through each door: no answer and no log line holds it', async () => {
    const lines: string[] = [];
    configureLog({ silent: false });
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const answers: string[] = [];
    try {
      const dns = operationTable.find((r) => r.name === 'create_dns_connection')!;
      for (const { type, field } of marked) {
        const wire = camelToSnake(field);
        // Beside an unknown field, beside a field of the wrong type, and itself of the wrong type.
        const bodies: Record<string, unknown>[] = [
          { kind: 'rfc2136', [wire]: SECRET, bogus: 1 },
          { kind: 'rfc2136', [wire]: SECRET, port: 'fifty-three' },
          { kind: 'rfc2136', [wire]: [SECRET] },
          { kind: 'rfc2136', [wire]: { value: SECRET } },
        ];
        for (const body of bodies) {
          const graphqlInput = Object.fromEntries(Object.entries(body).map(([k, v]) => [k === wire ? field : k, k === 'kind' ? 'RFC2136' : v]));
          if (type === 'DnsConnectionInput') {
            const c: Case = { row: dns, wire, variables: { input: graphqlInput }, value: undefined };
            answers.push(await (await overSocket(dns.path, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) })).text());
            answers.push(
              await (
                await overSocket('/mcp', {
                  method: 'POST',
                  headers: HEADERS,
                  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: dns.name, arguments: body } }),
                })
              ).text(),
            );
            answers.push(await (await graphqlDoor(c)).text());
            answers.push(
              await (
                await overSocket('/graphql', {
                  method: 'POST',
                  headers: HEADERS,
                  body: JSON.stringify({ query: loadDocument(dns.document).source, variables: c.variables }),
                })
              ).text(),
            );
          }
          // /graphql with the input in variables and written into the query itself (a literal).
          const mutation = type === 'DnsConnectionInput' ? 'createDnsConnection' : 'changePassword';
          const variables =
            type === 'DnsConnectionInput' ? { input: graphqlInput } : { input: { currentPassword: 'x', newPassword: 'y', ...pick(graphqlInput, field) } };
          answers.push(
            await (
              await service.api('/graphql', {
                method: 'POST',
                headers: HEADERS,
                body: JSON.stringify({ query: `mutation($input: ${type}!) { ${mutation}(input: $input) { __typename } }`, variables }),
              })
            ).text(),
          );
          const literal = `{ ${field}: ${JSON.stringify(pick(graphqlInput, field)[field])}${type === 'DnsConnectionInput' ? ', kind: RFC2136, bogus: 1' : ', newPassword: 5'} }`;
          answers.push(
            await (
              await service.api('/graphql', {
                method: 'POST',
                headers: HEADERS,
                body: JSON.stringify({ query: `mutation { ${mutation}(input: ${literal}) { __typename } }` }),
              })
            ).text(),
          );
        }
      }
      flushLog();
    } finally {
      out.mockRestore();
      err.mockRestore();
      configureLog({ silent: true });
    }
    // Every answer is a refusal of the input (so the test reaches the code that words it).
    expect(answers.length).toBeGreaterThan(40);
    for (const answer of answers) expect(answer).toMatch(/"(code|errors)"|isError/);
    for (const answer of answers) expect(answer).not.toContain(SECRET);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(SECRET);
  });
});

/** A request to the account listener over its socket (serve-http.ts writes its request log line). */
function overSocket(path: string, init: RequestInit): Promise<Response> {
  return fetch(service.apiUrl + path, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${service.demo.key}` } });
}

function pick(object: Record<string, unknown>, key: string): Record<string, unknown> {
  return { [key]: object[key] };
}
