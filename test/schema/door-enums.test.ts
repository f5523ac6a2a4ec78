import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEnumType, isNonNullType, parse, type GraphQLEnumType } from 'graphql';
import { schema } from '../../schema/index.js';
import { operationTable } from '../../operations/operation-table.js';
import { openApiDocument } from '../../rest/openapi.js';
import { loadDocument } from '../../operations/operation-document.js';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import { SEQUENCERS } from '../../resolvers/changes/sequencers.js';
import { REQUEST_KINDS } from '../../resolvers/changes/request-kinds.js';
import { ANALYTICS_PERIODS } from '../../resolvers/account/get-analytics.js';
import { answerToWire, variablesFromWire } from '../../operations/wire-shape.js';
import { startTestService, graphql, type TestService } from '../support/test-service.js';

const enumType = (name: string) => schema.getType(name) as GraphQLEnumType;
const documentOf = (name: string) => {
  const { source, operationName } = loadDocument(name);
  return { document: parse(source), operationName };
};

describe('sequencers, change request kinds and analytics periods are GraphQL enums', () => {
  it('their values are the ones the resolvers accept (periods as ISO 8601 durations)', () => {
    for (const name of ['Sequencer', 'RequestKind', 'AnalyticsPeriod']) expect(isEnumType(schema.getType(name)), name).toBe(true);
    expect(
      enumType('Sequencer')
        .getValues()
        .map((v) => v.name)
        .sort(),
    ).toEqual(Object.keys(SEQUENCERS).sort());
    expect(
      enumType('RequestKind')
        .getValues()
        .map((v) => v.name)
        .sort(),
    ).toEqual(Object.keys(REQUEST_KINDS).sort());
    expect(
      enumType('AnalyticsPeriod')
        .getValues()
        .map((v) => [v.name, v.value]),
    ).toEqual(Object.keys(ANALYTICS_PERIODS).map((p) => [`P${p.toUpperCase()}`, p]));
  });

  it('inputs and answers use them', () => {
    const sequencerInput = schema.getType('SequencerInput') as unknown as { getFields(): Record<string, { type: unknown }> };
    expect(String(sequencerInput.getFields().sequencer?.type)).toBe('Sequencer!');
    const raiseInput = schema.getType('RaiseRequestInput') as unknown as { getFields(): Record<string, { type: unknown }> };
    expect(String(raiseInput.getFields().kind?.type)).toBe('RequestKind!');
    const analytics = schema.getQueryType()?.getFields().analytics;
    expect(String(analytics?.args.find((a) => a.name === 'period')?.type)).toBe('AnalyticsPeriod');
    expect(String(analytics?.type)).toBe('Analytics!');
    const period = (schema.getType('Analytics') as unknown as { getFields(): Record<string, { type: unknown }> }).getFields().period?.type;
    expect(isNonNullType(period) && String(period)).toBe('AnalyticsPeriod!');
    expect(String((schema.getType('OrderSummary') as unknown as { getFields(): Record<string, { type: unknown }> }).getFields().sequencer?.type)).toBe(
      'Sequencer',
    );
    expect(String((schema.getType('ChangeRequest') as unknown as { getFields(): Record<string, { type: unknown }> }).getFields().kind?.type)).toBe(
      'RequestKind!',
    );
  });
});

describe('the REST and MCP doors keep the documented spelling', () => {
  it('a body enum is taken in any case and passed on as GraphQL names it', () => {
    const { document, operationName } = documentOf('set-sequencer');
    const variables = variablesFromWire(schema, document, operationName, { subscriptionId: 'sub_x', input: { sequencer: ' HubSpot ' } });
    expect(variables).toEqual({ subscriptionId: 'sub_x', input: { sequencer: 'hubspot' } });
  });

  it('a period written 30d reaches GraphQL as P30D and comes back as 30d', () => {
    const { document, operationName } = documentOf('analytics');
    expect(variablesFromWire(schema, document, operationName, { period: '30d' })).toEqual({ period: 'P30D' });
    expect(answerToWire(schema, document, operationName, { analytics: { period: 'P30D', from: 'a', to: 'b', domains: [] } })).toEqual({
      analytics: { period: '30d', from: 'a', to: 'b', domains: [] },
    });
  });

  it('answer keys take their wire names in the order GraphQL answered them; body keys GraphQL names', () => {
    const { document, operationName } = documentOf('set-monitors');
    const answer = answerToWire(schema, document, operationName, {
      setMonitors: { subscriptionId: 's', sequencer: null, monitorReconnection: true, monitorDeliverability: false },
    });
    // The mechanical rule (subscription_id) and a wireName carried by the field (reconnection).
    expect(JSON.stringify(answer)).toBe('{"set_monitors":{"subscription_id":"s","sequencer":null,"reconnection":true,"deliverability":false}}');
    const order = documentOf('preview-order');
    const variables = variablesFromWire(schema, order.document, order.operationName, {
      order: {
        sku: 'x',
        promotion_code: 'P',
        domains: [{ domain: 'a.test', mailboxes: [{ first_name: 'Ada', last_name: 'L', local_part: 'ada' }] }],
        made_up: { a_b: 1 },
      },
    });
    expect(JSON.stringify(variables)).toBe(
      '{"order":{"sku":"x","promotionCode":"P","domains":[{"domain":"a.test","mailboxes":[{"firstName":"Ada","lastName":"L","localPart":"ada"}]}],"madeUp":{"aB":1}}}',
    );
  });

  it("an unknown sequencer or kind is refused in the resolver's words, listing the values (400, allowed)", () => {
    const sequencer = documentOf('set-sequencer');
    let refusal: unknown;
    try {
      variablesFromWire(schema, sequencer.document, sequencer.operationName, { subscriptionId: 'sub_x', input: { sequencer: 'carrier-pigeon' } });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(restAnswerOf(refusal)).toMatchObject({ status: 400, code: 'unknown_sequencer', extras: { allowed: Object.keys(SEQUENCERS) } });
    const kind = documentOf('raise-request');
    expect(() => variablesFromWire(schema, kind.document, kind.operationName, { input: { subscriptionId: 'sub_x', kind: 'teleport', summary: 'x' } })).toThrow(
      /not a kind of request; send one of forwarding/,
    );
  });

  it('OpenAPI and the MCP input schemas list the documented spellings', () => {
    const api = openApiDocument(operationTable, 'api', 'http://127.0.0.1');
    const text = JSON.stringify(api);
    const schemas = (api as unknown as { components: { schemas: Record<string, { properties: Record<string, { enum?: unknown[] }> }> } }).components.schemas;
    expect(schemas.SequencerInput?.properties.sequencer?.enum).toEqual(Object.keys(SEQUENCERS));
    expect(schemas.RaiseRequestInput?.properties.kind?.enum).toEqual(Object.keys(REQUEST_KINDS));
    expect(text).toContain(JSON.stringify(Object.keys(ANALYTICS_PERIODS)));
    expect(text.match(/.{80}P7D.{40}/)?.[0]).toBeUndefined();
  });
});

describe('through the service', () => {
  let service: TestService;
  let subscriptionId: string;
  beforeAll(async () => {
    service = await startTestService({ socketless: true });
    subscriptionId = (await (await service.api('/v1/portal/orders')).json()).orders[0].subscription_id;
  });
  afterAll(async () => {
    await service?.close();
  });

  it('REST answers period 30d; /graphql answers P30D for the same request', async () => {
    const rest = await (await service.api('/v1/portal/analytics?period=30D')).json();
    expect(rest.period).toBe('30d');
    const gql = await graphql(service, '{ analytics(period: P30D) { period from to } }');
    expect(gql.body.data.analytics).toEqual({ ...gql.body.data.analytics, period: 'P30D', from: rest.from, to: rest.to });
  });

  it("/graphql refuses an unknown sequencer in words that name the enum; REST in the resolver's words", async () => {
    const gql = await graphql(service, 'mutation($s: String!) { setSequencer(subscriptionId: $s, input: { sequencer: carrier }) { sequencer } }', {
      s: subscriptionId,
    });
    expect(gql.body.errors?.[0]?.message).toMatch(/Sequencer/);
    const rest = await service.api(`/v1/portal/orders/${subscriptionId}/sequencer`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sequencer: 'carrier' }),
    });
    expect(rest.status).toBe(400);
    expect((await rest.json()).detail).toMatch(/"carrier" is not a sequencer we connect to; send one of instantly/);
  });

  it('a sequencer set through REST reads back as the enum value on /graphql', async () => {
    const rest = await service.api(`/v1/portal/orders/${subscriptionId}/sequencer`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sequencer: 'Lemlist' }),
    });
    expect((await rest.json()).sequencer).toBe('lemlist');
    const gql = await graphql(service, '{ orders { subscriptionId sequencer } }');
    expect(gql.body.data.orders.find((o: { subscriptionId: string }) => o.subscriptionId === subscriptionId).sequencer).toBe('lemlist');
  });
});
