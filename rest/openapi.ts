import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { loadDocument } from '../operations/operation-document.js';
import { RATE_LIMIT_CLASSES } from '../resolvers/limits/rate-limits.js';
import { toolNameOf, type OperationRow, type ParamSpec } from '../operations/operation-table.js';
import { answerSchemaFor } from '../operations/answer-schema.js';
import { inputSchemaFor, paramSchema } from '../operations/input-schema.js';
import { bodyInputType } from '../operations/body-schema.js';
import { CHECKS_API_VERSION } from '../operations/tools-catalogue.js';
import { inputSchema, isJsonSchema, refName, type JsonSchema } from '../operations/graphql-json-schema.js';

export type OpenApiDocument = Record<string, unknown> & {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly { readonly url: string }[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Record<string, Record<string, OpenApiOperation>>;
  readonly components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};

/** Media types to the schema of each (`application/json`, or a file's type). */
type OpenApiContent = Record<string, { schema: JsonSchema }>;

export interface OpenApiParameter {
  name: string;
  in: string;
  required: boolean;
  description: string;
  style?: 'form';
  explode?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; description?: string; content: OpenApiContent };
  responses: Record<string, { description: string; headers?: Record<string, JsonSchema>; content?: OpenApiContent }>;
  security: Record<string, string[]>[];
  /** The scope a key needs (account operations); absent on the public checks. */
  'x-scope'?: string | null;
  [extension: `x-${string}`]: unknown;
}

/** What each error status means on this API (SPEC 7), in the words the reference page shows. */
export const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: 'Refused: `detail` says what to change (a missing or malformed parameter, an unknown or price-like body field, order problems listed by domain in `problems`).',
  401: 'The key is missing, not recognised, revoked or expired.',
  402: 'The payment processor did not take the payment (declined card, or a code it would not redeem). Nothing charged.',
  403: 'The key lacks the scope this call needs; `required_scope` names it.',
  404: 'No such record, or no such sku on the account.',
  409: 'Cannot go ahead as sent (no card on file, the price changed since the preview, the plan cannot be ordered this way, a name already used). Nothing charged.',
  413: 'The body is larger than 1 MiB.',
  422: 'A return URL or a field is not in the expected shape.',
  429: 'Too many requests; wait `Retry-After` seconds.',
  502: 'The payment processor could not be reached. Nothing charged; retry.',
  503: 'A dependency is unavailable (the database, or the sign-in checks an order runs); retry after `Retry-After` seconds.',
};

/**
 * Statuses a row gives beyond what its shape implies (401, 403, 429 and 503 for every account row;
 * 400 with inputs; 404 with path parameters; 413 with a body). Read from the resolvers; a new row
 * not listed here still gets its shape's statuses.
 */
const EXTRA_STATUSES: Readonly<Record<string, readonly number[]>> = {
  create_workspace: [409],
  rename_workspace: [409],
  set_monitors: [422],
  raise_request: [404, 409],
  preview_order: [404, 409],
  place_order: [402, 404, 409, 502],
  create_card_setup_link: [422, 502],
  apply_domain_setup: [409, 422, 502],
  revert_domain_setup_apply: [409, 422, 502],
};

/** Header inputs whose format is a rule of the API (SPEC 4.2, Idempotency). */
const HEADER_SCHEMAS: Readonly<Record<string, { schema: JsonSchema; required: boolean; description: string }>> = {
  'Idempotency-Key': {
    schema: { type: 'string', pattern: '^[A-Za-z0-9.:_-]{8,64}$', minLength: 8, maxLength: 64 },
    required: true,
    description:
      'A new unique key per order: 8 to 64 letters, digits, dots, dashes, colons or underscores. Retrying with the same key answers the order already placed (`replayed` true) and never places a second one.',
  },
};

/**
 * The OpenAPI 3.1 document of one listener, generated from the operation table: paths and
 * parameters from the rows, request bodies from the GraphQL input types, answers from the
 * operation documents' selection sets, scopes and error statuses from the rows. {api_url}/openapi.json
 * serves the account rows, {base_url}/openapi.json the public checks.
 */
export function openApiDocument(rows: readonly OperationRow[], listener: 'api' | 'public', baseUrl: string): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = { Error: errorSchema() };
  if (listener === 'public') Object.assign(schemas, checkAnswerSchemas());
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  for (const row of rows.filter((r) => r.listener === listener)) {
    const item = (paths[row.path] ??= {});
    if (listener === 'public') {
      const answer = answerSchemaOf(row, schemas);
      item.get = publicOperation(row, 'GET', answer);
      item.post = publicOperation(row, 'POST', answer);
    } else {
      item[row.method.toLowerCase()] = accountOperation(row, schemas);
    }
  }
  const api = listener === 'api';
  return {
    openapi: '3.1.0',
    info: api
      ? {
          title: 'Account API',
          version: 'v1',
          description:
            'Reading an account, managing folders and settings, previewing and placing inbox orders. Every request carries ' +
            '`Authorization: Bearer <API_KEY>`; each operation names the scope its key needs. Every JSON answer carries ' +
            '`X-RateLimit-Remaining`. The same operations are MCP tools at `/mcp`, and a one-file command line client downloads from `/v1/cli`.',
        }
      : {
          title: 'Public checks API',
          version: CHECKS_API_VERSION,
          description:
            'Keyless, read-only deliverability checks, run live at call time and never cached. Every check answers GET with ' +
            'query parameters and POST with a JSON body of the same names (lists may be JSON arrays there). CORS is open. ' +
            'The same checks are MCP tools at `/mcp` and are listed in `/tools.json`.',
        },
    servers: [{ url: baseUrl }],
    tags: api
      ? [
          { name: 'Reading', description: 'GET, scope read.' },
          { name: 'Changing', description: 'Folders, filing, sequencer, monitors, change requests; scope write.' },
          { name: 'Ordering', description: 'Preview (read), place and the card setup link (orders:place).' },
        ]
      : [{ name: 'Checks', description: 'Public, keyless; 120 requests per minute per client address.' }],
    paths,
    components: {
      schemas,
      ...(api
        ? {
            securitySchemes: {
              bearerAuth: {
                type: 'http',
                scheme: 'bearer',
                description:
                  "An API key made in the portal's settings, sent as `Authorization: Bearer <key>`. Its scopes (read, write, orders:place) are fixed at creation; each stands alone.",
              },
            },
          }
        : {}),
      headers: {
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
        'X-RateLimit-Limit': {
          description: "The allowance this answer counted against, per window (the account's own when the operator set one).",
          schema: { type: 'integer', minimum: 1 },
        },
        'X-RateLimit-Remaining': { description: 'Requests left in the current allowance window.', schema: { type: 'integer', minimum: 0 } },
        'X-RateLimit-Reset': { description: 'Seconds until the window starts afresh.', schema: { type: 'integer', minimum: 0 } },
        'X-Request-Id': { description: 'Quote it to the operator about this request.', schema: { type: 'string' } },
        ...(api
          ? {
              ETag: {
                description: 'A weak validator of the answer; send it back as If-None-Match to get a 304 without a body while the answer is unchanged.',
                schema: { type: 'string' },
              },
              'Idempotent-Replayed': {
                description: '"true" when this answer is the order already placed with the same Idempotency-Key (nothing was charged again).',
                schema: { type: 'string', enum: ['true'] },
              },
            }
          : {}),
      },
    },
  };
}

function tagOf(row: OperationRow): string {
  if (row.listener === 'public') return 'Checks';
  if (row.scope === 'orders:place' || row.path.startsWith('/v1/orders')) return 'Ordering';
  return row.method === 'GET' ? 'Reading' : 'Changing';
}

function rateLimitText(row: OperationRow): string {
  const kind = row.listener === 'public' ? 'public' : row.method === 'GET' ? 'read' : row.rateLimit;
  const spec = RATE_LIMIT_CLASSES[kind];
  return `${spec.points} per ${spec.duration === 60 ? 'minute' : 'hour'} per ${spec.per} (${kind})`;
}

function parameterOf(param: ParamSpec): OpenApiParameter {
  const required = param.in === 'path' ? true : param.required;
  if (param.list) {
    // form style, not exploded: a=x,y,z, which is the comma-separated list the door reads.
    const description = /comma/i.test(param.description) ? param.description : `${param.description} Comma-separated.`;
    const schema = { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, ...(param.maxItems ? { maxItems: param.maxItems } : {}) };
    return { name: param.name, in: param.in, required, description, style: 'form', explode: false, schema };
  }
  const schema: JsonSchema =
    param.type === 'integer'
      ? { type: 'integer' }
      : param.enum
        ? { type: 'string', enum: [...param.enum] }
        : { type: 'string', ...(param.required ? { minLength: 1 } : {}) };
  return { name: param.name, in: param.in, required, description: param.description, schema };
}

const PUBLIC_MEANINGS: Readonly<Record<number, string>> = {
  400: 'A missing or malformed parameter; `detail` says what to pass instead.',
  429: 'Too many requests from this address; wait `Retry-After` seconds.',
};

/** On every answer of every door (resolvers/limits/door-policy.ts). */
const RATE_LIMIT_HEADER_REFS: Record<string, JsonSchema> = Object.fromEntries(
  ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

function errorResponses(statuses: Iterable<number>, meanings: Readonly<Record<number, string>> = ERROR_MEANINGS): OpenApiOperation['responses'] {
  const out: OpenApiOperation['responses'] = {};
  for (const status of [...new Set(statuses)].sort((a, b) => a - b)) {
    const headers: Record<string, JsonSchema> = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...RATE_LIMIT_HEADER_REFS };
    if (status === 429 || status === 503) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    out[String(status)] = {
      description: meanings[status] ?? ERROR_MEANINGS[status] ?? 'Refused; `detail` says why.',
      headers,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}

function publicOperation(row: OperationRow, method: 'GET' | 'POST', answer: JsonSchema): OpenApiOperation {
  const get = method === 'GET';
  return {
    operationId: get ? row.name : `${row.name}_post`,
    summary: row.summary,
    description: get
      ? `${row.summary} Live at call time, never cached. Answer fields and finding codes: docs/checks.md.`
      : `The same check as GET ${row.path}, with its parameters as a JSON body (lists may be arrays).`,
    tags: [tagOf(row)],
    ...(get
      ? { parameters: row.params.map(parameterOf) }
      : {
          requestBody: { required: true, content: { 'application/json': { schema: inputSchemaFor(row) } } },
        }),
    responses: {
      200: {
        description:
          "The check's answer: status, summary, findings, dnssec and the check's own fields (or only the first four when the request's deadline cut it off).",
        headers: { ...RATE_LIMIT_HEADER_REFS, 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
        content: { 'application/json': { schema: answer } },
      },
      ...errorResponses(get ? [400, 429] : [400, 413, 429], PUBLIC_MEANINGS),
    },
    security: [],
    'x-rate-limit': rateLimitText(row),
    'x-mcp-tool': toolNameOf(row),
    'x-mcp-annotations': row.annotations,
    ...(get ? {} : { 'x-same-as': row.name }),
  };
}

function accountOperation(row: OperationRow, schemas: Record<string, JsonSchema>): OpenApiOperation {
  const { source } = loadDocument(row.document);
  const document = parse(source);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error(`operations/documents/${row.document}.graphql holds no operation.`);

  const parameters = row.params.filter((p) => p.in !== 'body').map(parameterOf);
  for (const { header, variable } of row.headerVariables ?? []) {
    const known = HEADER_SCHEMAS[header];
    const definition = operation.variableDefinitions?.find((v) => v.variable.name.value === variable);
    parameters.push({
      name: header,
      in: 'header',
      required: known?.required ?? definition?.type.kind === Kind.NON_NULL_TYPE,
      description: known?.description ?? `Passed to the operation as $${variable}.`,
      schema: known?.schema ?? { type: 'string' },
    });
  }

  let requestBody: OpenApiOperation['requestBody'];
  const body = bodyInputType(row);
  const bodyParams = row.params.filter((p) => p.in === 'body');
  if (bodyParams.length > 0) {
    requestBody = {
      required: true,
      description: 'A JSON object; field names in snake_case. Unknown fields are refused.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: Object.fromEntries(bodyParams.map((p) => [p.name, paramSchema(p)])),
            required: bodyParams.filter((p) => p.required).map((p) => p.name),
            additionalProperties: false,
          },
        },
      },
    };
  } else if (body) {
    const json = { 'application/json': { schema: inputSchema(body.type, schemas) } };
    requestBody = {
      required: body.required,
      description: 'A JSON object; field names in snake_case. Unknown fields are refused.',
      content: json,
    };
    if (row.rawBody) {
      // The file itself as the body (any type but JSON); its name in ?filename=.
      const file = { schema: { type: 'string', format: 'binary' } };
      requestBody = {
        required: true,
        description: `The file itself as the body (name it with ?${row.rawBody.nameField}=), or a JSON object with its base64 in "${row.rawBody.contentField}".`,
        content: {
          ...json,
          'application/gzip': file,
          'application/zip': file,
          'application/xml': file,
          'message/rfc822': file,
          'application/octet-stream': file,
        },
      };
    }
  }

  const answer = answerSchemaOf(row, schemas);

  const statuses = [401, 403, 429, 503, ...(EXTRA_STATUSES[row.name] ?? [])];
  if (row.params.length || row.bodyVariable || row.headerVariables?.length) statuses.push(400);
  if (row.params.some((p) => p.in === 'path')) statuses.push(404);
  // A body field of the wrong shape (a string where a number goes, null where a value is required) is a 422 (SPEC 7).
  if (row.bodyVariable || bodyParams.length > 0) statuses.push(413, 422);
  if (requestBody && bodyMentions(requestBody, schemas, 'sku')) statuses.push(404);

  return {
    operationId: row.name,
    summary: row.summary,
    description: `${row.summary} Needs a key with scope \`${row.scope}\`. Rate limit: ${rateLimitText(row)}.`,
    tags: [tagOf(row)],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      200: {
        description: 'Success.',
        headers: {
          ...RATE_LIMIT_HEADER_REFS,
          'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
          ...(row.method === 'GET' ? { ETag: { $ref: '#/components/headers/ETag' } } : {}),
          ...(row.headerVariables?.some((h) => h.header === 'Idempotency-Key')
            ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }
            : {}),
        },
        content: row.textAnswer ? { [row.textAnswer]: { schema: { type: 'string' } } } : { 'application/json': { schema: answer } },
      },
      ...(row.method === 'GET'
        ? {
            304: {
              description: "Not modified: the request sent this answer's ETag in If-None-Match. No body; the read still counts.",
              headers: { ...RATE_LIMIT_HEADER_REFS, ETag: { $ref: '#/components/headers/ETag' } },
            },
          }
        : {}),
      ...errorResponses(statuses),
    },
    security: [{ bearerAuth: row.scope ? [row.scope] : [] }],
    'x-scope': row.scope,
    'x-rate-limit': rateLimitText(row),
    'x-mcp-tool': toolNameOf(row),
    'x-mcp-annotations': row.annotations,
  };
}

/** The REST answer's schema of a row (operations/answer-schema.ts), registered as <Name>Answer. */
function answerSchemaOf(row: OperationRow, schemas: Record<string, JsonSchema>): JsonSchema {
  const answerName = `${pascal(row.name)}Answer`;
  schemas[answerName] = answerSchemaFor(row);
  return { $ref: `#/components/schemas/${answerName}` };
}

/** Whether a body (following $refs into the components) has a property of this name. */
function bodyMentions(requestBody: NonNullable<OpenApiOperation['requestBody']>, schemas: Record<string, JsonSchema>, name: string): boolean {
  const seen = new Set<string>();
  const visit = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(visit);
    if (!isJsonSchema(node)) return false;
    if (typeof node.$ref === 'string') {
      const ref = refName(node.$ref);
      if (seen.has(ref)) return false;
      seen.add(ref);
      return visit(schemas[ref]);
    }
    if (isJsonSchema(node.properties) && name in node.properties) return true;
    return Object.values(node).some(visit);
  };
  return visit(requestBody);
}

function pascal(name: string): string {
  return name
    .split(/[_-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

function errorSchema(): JsonSchema {
  return {
    type: 'object',
    description:
      'Every refusal. Extra fields sit beside `detail` where they help: `problems` (order issues by domain), `retry_after`, `required_scope`, `allow`.',
    required: ['detail', 'code', 'request_id'],
    properties: {
      detail: { type: 'string', description: 'A sentence saying what went wrong and what to send instead.' },
      code: { type: 'string', description: 'A stable machine-readable name of the refusal.' },
      request_id: { type: 'string', description: 'Quote it to the operator.' },
      problems: { type: 'array', description: 'Order problems, grouped by domain.', items: { type: 'object' } },
      retry_after: { type: 'integer', description: 'Seconds to wait (429, 503).' },
      required_scope: { type: 'string', description: 'The scope the key lacks (403).' },
    },
    additionalProperties: true,
  };
}

function checkAnswerSchemas(): Record<string, JsonSchema> {
  return {
    Finding: {
      type: 'object',
      required: ['severity', 'code', 'message'],
      properties: {
        severity: { type: 'string', enum: ['error', 'warning', 'info'] },
        code: { type: 'string', description: "Stable finding code; each check's codes are listed in docs/checks.md." },
        message: { type: 'string', description: 'A sentence a person can act on.' },
      },
      additionalProperties: true,
    },
    CheckAnswer: {
      type: 'object',
      description:
        'Every check answers status, summary, findings and dnssec, plus its own snake_case fields (docs/checks.md). A DNS timeout or SERVFAIL gives status "error", never a missing record.',
      required: ['status', 'summary', 'findings', 'dnssec'],
      properties: {
        status: { type: 'string', enum: ['pass', 'warn', 'fail', 'error'] },
        summary: { type: 'string', description: 'One sentence.' },
        findings: { type: 'array', items: { $ref: '#/components/schemas/Finding' } },
        dnssec: {
          type: ['object', 'null'],
          description:
            'The DNSSEC status of the DNS answers the check used, the weakest of them: secure, insecure, bogus or indeterminate, with the reason (docs/dnssec.md); null when the check asked no DNS question.',
          required: ['status', 'reason', 'answers', 'validated', 'name', 'type', 'extended_dns_error'],
          properties: {
            status: { type: 'string', enum: ['secure', 'insecure', 'bogus', 'indeterminate'] },
            reason: { type: 'string' },
            answers: { type: 'integer' },
            validated: { type: 'integer' },
            name: { type: ['string', 'null'] },
            type: { type: ['string', 'null'] },
            extended_dns_error: {
              type: ['object', 'null'],
              required: ['code', 'meaning', 'text'],
              properties: { code: { type: 'integer' }, meaning: { type: 'string' }, text: { type: ['string', 'null'] } },
            },
          },
        },
      },
      additionalProperties: true,
    },
  };
}
