import { builder } from './builder.js';
import { SECRET_INPUT } from './secret-input-extension.js';
import { sameSpellings, type DoorEnum } from './door-enum-extension.js';
import {
  createDnsConnection,
  deleteDnsConnection,
  DNS_CONNECTION_KINDS,
  listDnsConnections,
  TSIG_ALGORITHMS,
  unknownAlgorithmError,
  unknownKindError,
  type DnsConnection,
} from '../resolvers/domains/publishing/dns-connections.js';

/** GraphQL names cannot hold a hyphen: hmac_sha256 on /graphql, hmac-sha256 on REST and MCP. */
const algorithmName = (a: string) => a.replace('-', '_');

const DnsConnectionKindEnum = builder.enumType('DnsConnectionKind', {
  description: 'How records are published: rfc2136 (dynamic update signed with TSIG: BIND, Knot, PowerDNS) or cloudflare (an API token).',
  values: Object.fromEntries(DNS_CONNECTION_KINDS.map((k) => [k, { value: k }])),
  extensions: { door: { wireValues: sameSpellings(DNS_CONNECTION_KINDS), refuseUnknown: unknownKindError } satisfies DoorEnum },
});

const TsigAlgorithmEnum = builder.enumType('TsigAlgorithm', {
  description: `The TSIG key's HMAC: ${TSIG_ALGORITHMS.join(' or ')}.`,
  values: Object.fromEntries(TSIG_ALGORITHMS.map((a) => [algorithmName(a), { value: a }])),
  extensions: {
    door: { wireValues: Object.fromEntries(TSIG_ALGORITHMS.map((a) => [algorithmName(a), a])), refuseUnknown: unknownAlgorithmError } satisfies DoorEnum,
  },
});

const DnsConnectionRef = builder.objectRef<DnsConnection>('DnsConnection').implement({
  description: 'A way to publish records at the account’s DNS provider. Its secret or token is never shown again.',
  fields: (t) => ({
    connectionId: t.exposeInt('connectionId'),
    kind: t.field({ type: DnsConnectionKindEnum, resolve: (c) => c.kind }),
    label: t.exposeString('label', { nullable: true }),
    server: t.exposeString('server', { nullable: true, description: 'rfc2136: the primary server’s address or host name.' }),
    port: t.exposeInt('port', { nullable: true, description: 'rfc2136: its port (TCP).' }),
    keyName: t.exposeString('keyName', { nullable: true, description: 'rfc2136: the TSIG key’s name.' }),
    algorithm: t.field({ type: TsigAlgorithmEnum, nullable: true, resolve: (c) => c.algorithm }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const DeletedDnsConnectionRef = builder.objectRef<{ connectionId: number; deleted: true }>('DeletedDnsConnection').implement({
  fields: (t) => ({ connectionId: t.exposeInt('connectionId'), deleted: t.exposeBoolean('deleted') }),
});

const DnsConnectionInput = builder.inputType('DnsConnectionInput', {
  fields: (t) => ({
    kind: t.field({ type: DnsConnectionKindEnum, required: true, description: `One of ${DNS_CONNECTION_KINDS.join(', ')}.` }),
    label: t.string({ required: false, description: 'A name to tell connections apart; at most 100 characters.' }),
    server: t.string({ required: false, description: 'rfc2136: the primary DNS server’s public IP address or host name.' }),
    port: t.int({ required: false, description: 'rfc2136: 1 to 65535; 53 when left out.' }),
    keyName: t.string({ required: false, description: 'rfc2136: the TSIG key’s name, as in the server’s key statement.' }),
    algorithm: t.field({ type: TsigAlgorithmEnum, required: false, description: 'rfc2136: hmac-sha256 (the default) or hmac-sha512.' }),
    secret: t.string({ required: false, description: 'rfc2136: the TSIG secret in base64. Stored encrypted, never shown again.', extensions: SECRET_INPUT }),
    apiToken: t.string({
      required: false,
      description: 'cloudflare: an API token with Zone > DNS > Edit. Stored encrypted, never shown again.',
      extensions: SECRET_INPUT,
    }),
  }),
});

builder.queryField('dnsConnections', (t) =>
  t.field({
    type: [DnsConnectionRef],
    description: "The DNS connections of the caller's account (without their secrets).",
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => listDnsConnections(ctx),
  }),
);

builder.mutationField('createDnsConnection', (t) =>
  t.field({
    type: DnsConnectionRef,
    description: 'Stores a connection to the account’s DNS provider; its secret is encrypted and never shown again.',
    authScopes: { write: true },
    args: { input: t.arg({ type: DnsConnectionInput, required: true }) },
    resolve: (_root, args, ctx) => createDnsConnection(args.input, ctx),
  }),
);

builder.mutationField('deleteDnsConnection', (t) =>
  t.field({
    type: DeletedDnsConnectionRef,
    description: 'Deletes a connection and its stored secret.',
    authScopes: { write: true },
    args: { connectionId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteDnsConnection(args.connectionId, ctx),
  }),
);
