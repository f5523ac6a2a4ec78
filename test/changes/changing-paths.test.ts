import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { startTestService, graphql, type TestService } from '../support/test-service.js';
import type { DemoAccount } from '../../admin/seed-demo.js';

let service: TestService;
let other: DemoAccount;
let subscriptionId: string;
let otherSubscriptionId: string;
let domains: string[];

beforeAll(async () => {
  service = await startTestService({ socketless: true });
  other = await service.seedAccount();
  const orders = await (await service.api('/v1/portal/orders')).json();
  subscriptionId = orders.orders[0].subscription_id;
  const otherOrders = await (await service.api('/v1/portal/orders', { key: other.key })).json();
  otherSubscriptionId = otherOrders.orders[0].subscription_id;
  const dashboard = await (await service.api('/v1/portal/dashboard')).json();
  domains = dashboard.orders.flatMap((o: any) => o.domains.map((d: any) => d.domain));
});
afterAll(async () => {
  await service?.close();
});

async function send(method: string, path: string, body?: unknown, key: string = service.demo.key) {
  const response = await service.api(path, {
    method,
    key,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe('workspaces', () => {
  let id: number;

  it('creates, lists, renames and deletes a folder; its domains stay, filed nowhere', async () => {
    const created = await send('POST', '/v1/portal/workspaces', { name: '  Client: Globex  ' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Client: Globex', domain_count: 0 });
    id = created.body.workspace_id;
    const renamed = await send('PUT', `/v1/portal/workspaces/${id}`, { name: 'Client: Globex EU' });
    expect(renamed.body).toMatchObject({ workspace_id: id, name: 'Client: Globex EU' });
    const filed = await send('PUT', `/v1/portal/domains/${domains[0]}/workspace`, { workspace_id: id });
    expect(filed.body).toMatchObject({ domain: domains[0], workspace_id: id, workspace_name: 'Client: Globex EU' });
    const listed = await (await service.api('/v1/portal/workspaces')).json();
    expect(listed.workspaces.find((w: any) => w.workspace_id === id).domain_count).toBe(1);
    const deleted = await send('DELETE', `/v1/portal/workspaces/${id}`);
    expect(deleted.body).toEqual({ workspace_id: id, deleted: true, unfiled_domain_count: 1 });
    const dashboard = await (await service.api('/v1/portal/dashboard')).json();
    const domain = dashboard.orders.flatMap((o: any) => o.domains).find((d: any) => d.domain === domains[0]);
    expect(domain).toMatchObject({ workspace_id: null, build_state: expect.any(String) });
  });

  it('unfiles a domain with workspace_id null', async () => {
    const ws = await send('POST', '/v1/portal/workspaces', { name: 'Temp folder' });
    await send('PUT', `/v1/portal/domains/${domains[1]}/workspace`, { workspace_id: ws.body.workspace_id });
    const unfiled = await send('PUT', `/v1/portal/domains/${domains[1]}/workspace`, { workspace_id: null });
    expect(unfiled.body).toEqual({ domain: domains[1], workspace_id: null, workspace_name: null });
    expect((await send('PUT', `/v1/portal/domains/${domains[1]}/workspace`, {})).status).toBe(400);
  });

  it('refuses an empty or too long name (400), a missing or non-string name or an unknown field (422), and a duplicate (409)', async () => {
    expect((await send('POST', '/v1/portal/workspaces', { name: '   ' })).status).toBe(400);
    expect((await send('POST', '/v1/portal/workspaces', { name: 'x'.repeat(101) })).status).toBe(400);
    expect((await send('POST', '/v1/portal/workspaces', {})).status).toBe(422);
    expect((await send('POST', '/v1/portal/workspaces', { name: 12 })).status).toBe(422);
    expect((await send('POST', '/v1/portal/workspaces', { name: 'Client: Acme outbound' })).status).toBe(409);
    expect((await send('POST', '/v1/portal/workspaces', { name: 'x', colour: 'red' })).status).toBe(422);
  });

  it("another account's workspace or domain is a 404 exactly like one that does not exist", async () => {
    const theirs = await send('POST', '/v1/portal/workspaces', { name: 'Theirs' }, other.key);
    const missing = await send('PUT', '/v1/portal/workspaces/999999', { name: 'x' });
    const foreign = await send('PUT', `/v1/portal/workspaces/${theirs.body.workspace_id}`, { name: 'x' });
    expect(missing.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(missing.body.detail.replace('999999', String(theirs.body.workspace_id)));
    expect((await send('DELETE', `/v1/portal/workspaces/${theirs.body.workspace_id}`)).status).toBe(404);
    expect((await send('PUT', `/v1/portal/domains/${domains[0]}/workspace`, { workspace_id: theirs.body.workspace_id })).status).toBe(404);
    const theirDomain = (await (await service.api('/v1/portal/dashboard', { key: other.key })).json()).orders[0].domains[0].domain;
    const foreignDomain = await send('PUT', `/v1/portal/domains/${theirDomain}/workspace`, { workspace_id: null });
    const missingDomain = await send('PUT', '/v1/portal/domains/nobody-has-this.com/workspace', { workspace_id: null });
    expect([foreignDomain.status, missingDomain.status]).toEqual([404, 404]);
    expect(foreignDomain.body.code).toBe(missingDomain.body.code);
  });

  it('works through GraphQL too', async () => {
    const result = await graphql(service, 'mutation { createWorkspace(input: { name: "From GraphQL" }) { workspaceId name domainCount } }');
    expect(result.body.data.createWorkspace).toMatchObject({ name: 'From GraphQL', domainCount: 0 });
  });
});

describe('order settings', () => {
  it('sets the sequencer from the documented list; anything else is a 400 listing them', async () => {
    const ok = await send('PUT', `/v1/portal/orders/${subscriptionId}/sequencer`, { sequencer: 'Smartlead' });
    expect(ok.body).toMatchObject({ subscription_id: subscriptionId, sequencer: 'smartlead' });
    const bad = await send('PUT', `/v1/portal/orders/${subscriptionId}/sequencer`, { sequencer: 'carrier-pigeon' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/instantly, smartlead/);
    expect(bad.body.allowed).toContain('lemlist');
    const orders = await (await service.api('/v1/portal/orders')).json();
    expect(orders.orders.find((o: any) => o.subscription_id === subscriptionId).sequencer).toBe('smartlead');
  });

  it('flips one monitor and leaves the other as it is', async () => {
    const before = await send('PUT', `/v1/portal/orders/${subscriptionId}/monitors`, { reconnection: true, deliverability: true });
    expect(before.body).toMatchObject({ reconnection: true, deliverability: true });
    const after = await send('PUT', `/v1/portal/orders/${subscriptionId}/monitors`, { deliverability: false });
    expect(after.body).toMatchObject({ reconnection: true, deliverability: false });
  });

  it('monitors: an empty body is a 400, a non-boolean a 422', async () => {
    expect((await send('PUT', `/v1/portal/orders/${subscriptionId}/monitors`, {})).status).toBe(400);
    expect((await send('PUT', `/v1/portal/orders/${subscriptionId}/monitors`, '')).status).toBe(400);
    expect((await send('PUT', `/v1/portal/orders/${subscriptionId}/monitors`, { reconnection: 'yes' })).status).toBe(422);
    expect((await send('PUT', `/v1/portal/orders/${subscriptionId}/monitors`, { reconnection: 1 })).status).toBe(422);
    expect((await send('PUT', `/v1/portal/orders/${subscriptionId}/monitors`, { reconnection: null })).status).toBe(422);
  });

  it("another account's order is a 404 like a missing one", async () => {
    const foreign = await send('PUT', `/v1/portal/orders/${otherSubscriptionId}/monitors`, { reconnection: false });
    const missing = await send('PUT', '/v1/portal/orders/sub_missing/monitors', { reconnection: false });
    expect([foreign.status, missing.status]).toEqual([404, 404]);
    expect(foreign.body.code).toBe(missing.body.code);
    expect((await send('PUT', `/v1/portal/orders/${otherSubscriptionId}/sequencer`, { sequencer: 'instantly' })).status).toBe(404);
  });

  it('needs the write scope', async () => {
    const { key } = await createApiKey(service.services.db, service.demo.accountId, ['read', 'orders:place']);
    expect((await send('PUT', `/v1/portal/orders/${subscriptionId}/monitors`, { reconnection: false }, key)).status).toBe(403);
  });
});

describe('change requests', () => {
  it('forwarding repoints every domain of the order at once and is answered by the service', async () => {
    const raised = await send('POST', '/v1/portal/requests', {
      subscription_id: subscriptionId,
      kind: 'forwarding',
      summary: 'Send visitors to the new site.',
      forward_to: 'New-Site.example',
    });
    expect(raised.status).toBe(200);
    expect(raised.body.request).toMatchObject({ kind: 'forwarding', status: 'done', forward_to: 'new-site.example' });
    expect(raised.body.domains_repointed).toBeGreaterThan(0);
    expect(raised.body.request.replies[0].body).toMatch(/new-site\.example/);
    const dashboard = await (await service.api('/v1/portal/dashboard')).json();
    const order = dashboard.orders.find((o: any) => o.subscription_id === subscriptionId);
    expect(order.domains.length).toBe(raised.body.domains_repointed);
    for (const d of order.domains) expect(d.forward_to).toBe('new-site.example');
    const others = dashboard.orders.filter((o: any) => o.subscription_id !== subscriptionId).flatMap((o: any) => o.domains);
    expect(others.some((d: any) => d.forward_to === 'new-site.example')).toBe(false);
  });

  it('other kinds wait for a person; all are listed with replies by GET /v1/portal/requests', async () => {
    const raised = await send('POST', '/v1/portal/requests', { subscription_id: subscriptionId, kind: 'add_mailboxes', summary: 'Two more on each domain.' });
    expect(raised.body.request).toMatchObject({ status: 'open', forward_to: null });
    const list = await (await service.api('/v1/portal/requests')).json();
    const found = list.requests.find((r: any) => r.request_id === raised.body.request.request_id);
    expect(found.replies.length).toBe(1);
  });

  it('refuses an unknown kind (400 listing the kinds), forwarding without forward_to, and an invalid forward_to', async () => {
    const unknown = await send('POST', '/v1/portal/requests', { subscription_id: subscriptionId, kind: 'teleport', summary: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/forwarding/);
    expect((await send('POST', '/v1/portal/requests', { subscription_id: subscriptionId, kind: 'forwarding', summary: 'x' })).status).toBe(400);
    expect(
      (await send('POST', '/v1/portal/requests', { subscription_id: subscriptionId, kind: 'forwarding', summary: 'x', forward_to: 'https://x.com/page' }))
        .status,
    ).toBe(400);
    expect(
      (await send('POST', '/v1/portal/requests', { subscription_id: subscriptionId, kind: 'forwarding', summary: '  ', forward_to: 'x.com' })).status,
    ).toBe(400);
    expect((await send('POST', '/v1/portal/requests', { subscription_id: subscriptionId, kind: 'forwarding' })).status).toBe(422);
  });

  it("a request on another account's order is a 404 and changes nothing there", async () => {
    const response = await send('POST', '/v1/portal/requests', {
      subscription_id: otherSubscriptionId,
      kind: 'forwarding',
      summary: 'x',
      forward_to: 'evil.example',
    });
    expect(response.status).toBe(404);
    const theirs = await (await service.api('/v1/portal/dashboard', { key: other.key })).json();
    expect(JSON.stringify(theirs)).not.toContain('evil.example');
  });

  it('works through GraphQL too', async () => {
    const result = await graphql(service, 'mutation($i: RaiseRequestInput!) { raiseRequest(input: $i) { request { kind status } domainsRepointed } }', {
      i: { subscriptionId, kind: 'other', summary: 'A question.' },
    });
    expect(result.body.data.raiseRequest).toEqual({ request: { kind: 'other', status: 'open' }, domainsRepointed: 0 });
  });
});
