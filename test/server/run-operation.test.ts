import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ASTVisitor, ValidationContext } from 'graphql';
import { configureLog } from '../../observability/log.js';
import { ApiError } from '../../operations/api-error.js';
import { createContext } from '../../resolvers/context.js';
import { operationTable } from '../../operations/operation-table.js';
import { createOperationRunner } from '../../server/run-operation.js';
import { startTestService, type TestService } from '../support/test-service.js';

// The dashboard's resolver throws whatever error a test puts here (and answers as usual otherwise).
const planted = vi.hoisted(() => ({ error: null as Error | null }));
vi.mock('../../resolvers/account/get-dashboard.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../resolvers/account/get-dashboard.js')>();
  return {
    ...actual,
    getDashboardSummary: async (ctx: Parameters<typeof actual.getDashboardSummary>[0]) => {
      if (planted.error) throw planted.error;
      return actual.getDashboardSummary(ctx);
    },
  };
});

// Our check-cost validation rule throws a plain Error (a bug) for documents that name `bugHere`:
// a failure before execution, which only the answer as /graphql sends it shows. (One file with both
// plants: a file with vi.mock runs in a worker process of its own, about 5 s of CPU to load.)
vi.mock('../../server/check-cost-rule.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/check-cost-rule.js')>();
  return {
    ...actual,
    checkCostRule: (context: ValidationContext): ASTVisitor => {
      if (context.getDocument().loc?.source.body.includes('bugHere')) throw new Error('planted validation bug');
      return actual.checkCostRule(context);
    },
  };
});

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});
afterEach(() => {
  planted.error = null;
});

const dashboardRow = operationTable.find((r) => r.name === 'get_dashboard')!;
// Extras named like the masked error's own extensions (status, http) were lost when the door rebuilt
// the error from the JSON answer; handed on as thrown, they arrive.
const refusal = () =>
  new ApiError(409, 'planted_refusal', 'Change the planted thing and retry.', { conflicting: ['a', 'b'], http: 'the extra, not the transport', since: 3 });

describe('the in-process operation runner', () => {
  it('hands on the ApiError a resolver threw, the same instance', async () => {
    const thrown = refusal();
    planted.error = thrown;
    const run = createOperationRunner(service.yoga);
    const ctx = createContext(service.services, { authorization: `Bearer ${service.demo.key}`, requestId: 'run-operation-test', clientAddress: '127.0.0.1' });
    await expect(run(dashboardRow, {}, ctx, 'rest')).rejects.toBe(thrown);
  });

  it('answers the data when nothing is thrown', async () => {
    const run = createOperationRunner(service.yoga);
    const ctx = createContext(service.services, { authorization: `Bearer ${service.demo.key}`, requestId: 'run-operation-test', clientAddress: '127.0.0.1' });
    const answer = (await run(dashboardRow, {}, ctx, 'rest')) as { domain_count: number; orders: unknown[] };
    expect(answer.domain_count).toBeGreaterThan(0);
    expect(Array.isArray(answer.orders)).toBe(true);
  });

  it("words GraphQL's own refusals for the door the call came through, with its listener's status", async () => {
    const run = createOperationRunner(service.yoga);
    const ctx = createContext(service.services, { authorization: `Bearer ${service.demo.key}`, requestId: 'run-operation-test', clientAddress: '127.0.0.1' });
    const previewRow = operationTable.find((r) => r.name === 'preview_order')!;
    const order = { order: { sku: 'google-inbox-unwarmed', domains: [], bogus: 1 } };
    const viaRest = await run(previewRow, order, ctx, 'rest').then(
      () => null,
      (error: unknown) => error,
    );
    const viaMcp = await run(previewRow, order, ctx, 'mcp').then(
      () => null,
      (error: unknown) => error,
    );
    expect(viaRest).toMatchObject({ status: 422, code: 'unknown_field' });
    expect((viaRest as ApiError).message).toContain('it is not a field of this request');
    expect(viaMcp).toMatchObject({ status: 422, code: 'unknown_field' });
    expect((viaMcp as ApiError).message).toContain('it is not an argument of this call');
    // The public listener answers the same class of input error with 400 (SPEC: a malformed parameter).
    const spfRow = operationTable.find((r) => r.listener === 'public' && r.document === 'check-spf')!;
    const publicCtx = createContext(service.services, { authorization: null, requestId: 'run-operation-test', clientAddress: '127.0.0.1' });
    const viaPublic = await run(spfRow, { domain: 5 }, publicCtx, 'rest').then(
      () => null,
      (error: unknown) => error,
    );
    expect(viaPublic).toMatchObject({ status: 400 });
  });

  it('REST answers the thrown status, code, detail and every extra', async () => {
    planted.error = refusal();
    const response = await service.api('/v1/portal/dashboard');
    expect(response.status).toBe(409);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      detail: 'Change the planted thing and retry.',
      code: 'planted_refusal',
      conflicting: ['a', 'b'],
      http: 'the extra, not the transport',
      since: 3,
    });
    expect(typeof body.request_id).toBe('string');
  });

  it('MCP answers the thrown status, code, detail and every extra as a tool error', async () => {
    planted.error = refusal();
    const response = await service.api('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_dashboard', arguments: {} } }),
    });
    expect(response.status).toBe(200);
    const message = (await response.json()) as { result: { isError: boolean; content: { text: string }[] } };
    expect(message.result.isError).toBe(true);
    expect(JSON.parse(message.result.content[0]!.text)).toEqual({
      detail: 'Change the planted thing and retry.',
      code: 'planted_refusal',
      status: 409,
      conflicting: ['a', 'b'],
      http: 'the extra, not the transport',
      since: 3,
    });
  });

  it('an unexpected resolver error is still masked: a 500 with no internals, on REST and MCP', async () => {
    planted.error = new Error('secret internal detail');
    const response = await service.api('/v1/portal/dashboard');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toMatchObject({ code: 'internal_error' });
  });

  it("the bug behind a masked 500 is logged once, with its stack and the answer's request id, on REST and /graphql", async () => {
    configureLog({ silent: false });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      for (const call of [
        () => service.api('/v1/portal/dashboard'),
        () =>
          service.api('/graphql', {
            method: 'POST',
            body: JSON.stringify({ query: '{ dashboard { domainCount } }' }),
            headers: { 'content-type': 'application/json' },
          }),
      ]) {
        lines.length = 0;
        planted.error = new Error('secret internal detail');
        const response = await call();
        const text = await response.text();
        expect(text).not.toContain('secret'); // the log has the stack; the answer has nothing of it
        const body = JSON.parse(text) as { request_id?: string; errors?: { extensions?: { code?: string } }[] };
        const requestId = response.headers.get('x-request-id');
        expect(body.request_id ?? body.errors?.[0]?.extensions?.code).toBeTruthy();
        const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.message === 'unexpected error');
        expect(logged).toHaveLength(1);
        expect(logged[0]!.request_id).toBe(requestId);
        expect(String(logged[0]!.error)).toContain('secret internal detail');
      }
    } finally {
      spy.mockRestore();
      configureLog({ silent: true });
    }
  });
});

describe('a bug before execution on /graphql', () => {
  it('a bug before execution on /graphql is masked in the answer and logged once, with its stack and the request id', async () => {
    configureLog({ silent: false });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const response = await service.api('/graphql', {
        method: 'POST',
        body: JSON.stringify({ query: 'query bugHere { dashboard { domainCount } }' }),
        headers: { 'content-type': 'application/json' },
      });
      const text = await response.text();
      expect(text).not.toContain('planted');
      expect(text).toContain('internal_error');
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.message === 'unexpected error');
      expect(logged).toHaveLength(1);
      expect(logged[0]!.request_id).toBe(response.headers.get('x-request-id'));
      expect(String(logged[0]!.error)).toContain('planted validation bug');
    } finally {
      spy.mockRestore();
      configureLog({ silent: true });
    }
  });
});
