import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { configureLog } from '../../observability/log.js';
import type { ASTVisitor, ValidationContext } from 'graphql';
import { startTestService, type TestService } from '../support/test-service.js';

// Our check-cost validation rule throws a plain Error (a bug) for documents that name `bugHere`:
// a failure before execution, which only the answer as /graphql sends it shows.
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
