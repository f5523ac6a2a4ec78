import { isIP } from 'node:net';
import { z } from 'zod';
import { DomainError, operation, sentence } from '../../domain-error.js';
import type { Context } from '../../context.js';
import { requireAccountId } from '../../auth/require-account.js';
import { decryptSecret, encryptSecret } from '../../secrets/encrypt-secret.js';
import {
  countDnsConnections,
  deleteDnsConnectionRow,
  findDnsConnection,
  findDnsConnectionsByAccount,
  insertDnsConnection,
} from '../../../db/dns-connections.js';
import type { DnsConnectionRow } from '../../../db/schema.js';
import type { DnsPublisher } from '../../../clients/dns-publishing/dns-publisher.js';
import { vetDnsServer, vetDnsServerPort } from '../../../clients/dns-publishing/dns-server-address.js';
import { createRfc2136Publisher } from '../../../clients/dns-publishing/rfc2136-publisher.js';
import type { TsigAlgorithm } from '../../../clients/dns-publishing/tsig.js';
import { refusalsAsDomainErrors, withDomainErrors } from './publisher-refusals.js';

export const DNS_CONNECTION_KINDS = ['rfc2136', 'cloudflare'] as const;
export type DnsConnectionKind = (typeof DNS_CONNECTION_KINDS)[number];
export const TSIG_ALGORITHMS = ['hmac-sha256', 'hmac-sha512'] as const satisfies readonly TsigAlgorithm[];

/** Connections per account: a few providers and a spare, bounded so an account cannot store without end. */
const MAX_CONNECTIONS = 20;

/** What may be shown of a connection: never its secret or token, which are sealed and never read back to a caller. */
export interface DnsConnection {
  readonly connectionId: number;
  readonly kind: DnsConnectionKind;
  readonly label: string | null;
  readonly server: string | null;
  readonly port: number | null;
  readonly keyName: string | null;
  readonly algorithm: TsigAlgorithm | null;
  readonly createdAt: Date;
}

export interface DnsConnectionInput {
  readonly kind: string;
  readonly label?: string | null;
  readonly server?: string | null;
  readonly port?: number | null;
  readonly keyName?: string | null;
  readonly algorithm?: string | null;
  readonly secret?: string | null;
  readonly apiToken?: string | null;
}

const Rfc2136Stored = z.object({ server: z.string(), port: z.number().int(), keyName: z.string(), algorithm: z.enum(TSIG_ALGORITHMS) });
const CloudflareStored = z.object({});

export function unknownKindError(raw: string): DomainError {
  return new DomainError('invalid_kind', `"${raw.slice(0, 40)}" is not a kind of DNS connection; send "kind": one of ${DNS_CONNECTION_KINDS.join(', ')}.`, {
    allowed: DNS_CONNECTION_KINDS,
  });
}

export function unknownAlgorithmError(raw: string): DomainError {
  return new DomainError(
    'invalid_algorithm',
    `"${raw.slice(0, 40)}" is not a TSIG algorithm this service signs with; send "algorithm": one of ${TSIG_ALGORITHMS.join(', ')}.`,
    {
      allowed: TSIG_ALGORITHMS,
    },
  );
}

/** The AAD a connection's secret is sealed under: it opens for the same account only (a key rotation re-seals under it too). */
export function sealPurpose(accountId: number): string {
  return `dns-connection:${accountId}`;
}

function shape(row: DnsConnectionRow): DnsConnection {
  const base = { connectionId: row.id, label: row.label, createdAt: row.created_at };
  if (row.kind === 'rfc2136') {
    const s = Rfc2136Stored.parse(JSON.parse(row.settings));
    return { ...base, kind: 'rfc2136', server: s.server, port: s.port, keyName: s.keyName, algorithm: s.algorithm };
  }
  CloudflareStored.parse(JSON.parse(row.settings));
  return { ...base, kind: 'cloudflare', server: null, port: null, keyName: null, algorithm: null };
}

export async function listDnsConnections(ctx: Context): Promise<DnsConnection[]> {
  const accountId = await requireAccountId(ctx);
  return (await findDnsConnectionsByAccount(ctx.services.db, accountId)).map(shape);
}

/** Stores a connection; its secret is sealed with SECRETS_KEY and not shown in this answer or any other. */
export async function createDnsConnection(input: DnsConnectionInput, ctx: Context): Promise<DnsConnection> {
  const accountId = await requireAccountId(ctx);
  const kind = DNS_CONNECTION_KINDS.find((k) => k === input.kind.trim().toLowerCase());
  if (!kind) throw unknownKindError(input.kind);
  const label = checkLabel(input.label);
  const { settings, secret } = kind === 'rfc2136' ? await checkRfc2136(input, ctx) : checkCloudflare(input);
  if ((await countDnsConnections(ctx.services.db, accountId)) >= MAX_CONNECTIONS)
    throw new DomainError('too_many_dns_connections', `An account may have ${MAX_CONNECTIONS} DNS connections; delete one you no longer use first.`);
  const row = await insertDnsConnection(ctx.services.db, {
    account_id: accountId,
    kind,
    label,
    settings: JSON.stringify(settings),
    secret_sealed: encryptSecret(ctx.services.secretsKey, secret, sealPurpose(accountId)),
  });
  return shape(row);
}

export async function deleteDnsConnection(connectionId: number, ctx: Context): Promise<{ connectionId: number; deleted: true }> {
  const accountId = await requireAccountId(ctx);
  if (!(await deleteDnsConnectionRow(ctx.services.db, accountId, connectionId, ctx.now()))) throw notFound(connectionId);
  return { connectionId, deleted: true };
}

function notFound(connectionId: number): DomainError {
  return new DomainError('dns_connection_not_found', sentence`You have no DNS connection ${connectionId}; ${operation('list_dns_connections')} lists yours.`);
}

/** The caller's connection with a publisher over it, its secret opened for this use only. */
export async function openDnsPublisher(ctx: Context, connectionId: number): Promise<{ connection: DnsConnection; publisher: DnsPublisher }> {
  const accountId = await requireAccountId(ctx);
  const row = await findDnsConnection(ctx.services.db, accountId, connectionId);
  if (!row) throw notFound(connectionId);
  const connection = shape(row);
  const secret = decryptSecret(ctx.services.secretsKey, row.secret_sealed, sealPurpose(accountId));
  const { allowPrivateAddresses, allowedPorts, cloudflareApiBase, timeoutMs } = ctx.services.publishing;
  if (connection.kind === 'rfc2136') {
    const s = Rfc2136Stored.parse(JSON.parse(row.settings));
    return {
      connection,
      publisher: withDomainErrors(createRfc2136Publisher(s, Buffer.from(secret, 'base64'), { allowPrivateAddresses, allowedPorts, timeoutMs })),
    };
  }
  // Cloudflare's SDK is the heaviest package we load (about half a second of CPU): loaded when a
  // Cloudflare connection is first used, not at every start.
  const { createCloudflarePublisher } = await import('../../../clients/dns-publishing/cloudflare-publisher.js');
  return { connection, publisher: withDomainErrors(createCloudflarePublisher(secret, { apiBase: cloudflareApiBase, timeoutMs })) };
}

function checkLabel(label: string | null | undefined): string | null {
  if (label === undefined || label === null || label.trim() === '') return null;
  if (label.length > 100 || /[\u0000-\u001f\u007f]/.test(label))
    throw new DomainError('invalid_label', 'The label is at most 100 characters without control characters; shorten it.');
  return label.trim();
}

/** A host name of letters, digits and hyphens (RFC 1123), at least two labels, at most 253 characters. */
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** A TSIG key name: a DNS name whose labels may also hold underscores (BIND's key names often do). */
const KEY_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function refuseFields(input: DnsConnectionInput, fields: readonly (keyof DnsConnectionInput)[], kind: string): void {
  const sent = fields.filter((f) => input[f] !== undefined && input[f] !== null);
  if (sent.length)
    throw new DomainError(
      'field_not_for_kind',
      `${sent.map((f) => `"${snake(f)}"`).join(', ')} ${sent.length === 1 ? 'is' : 'are'} not used by ${kind} connections; remove ${sent.length === 1 ? 'it' : 'them'}.`,
    );
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

async function checkRfc2136(input: DnsConnectionInput, ctx: Context): Promise<{ settings: z.infer<typeof Rfc2136Stored>; secret: string }> {
  refuseFields(input, ['apiToken'], 'rfc2136');
  const server = (input.server ?? '').trim().replace(/\.$/, '');
  if (server === '' || server.length > 253 || !(isIP(server.replace(/^\[|\]$/g, '')) || HOST_NAME.test(server)))
    throw new DomainError(
      'invalid_server',
      `Send "server": the primary DNS server's IP address or host name (such as ns1.example.net)${server ? `; "${server.slice(0, 60)}" is neither` : ''}.`,
    );
  const port = input.port ?? 53;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new DomainError('invalid_port', `"port" is a whole number from 1 to 65535 (53 when left out), not ${port}.`);
  await refusalsAsDomainErrors(async () => vetDnsServerPort(port, ctx.services.publishing.allowedPorts));
  const keyName = (input.keyName ?? '').trim().replace(/\.$/, '').toLowerCase();
  if (!KEY_NAME.test(keyName))
    throw new DomainError(
      'invalid_key_name',
      'Send "key_name": the TSIG key\'s name as the server knows it (the name in its key "..." statement, such as update-key).',
    );
  const rawAlgorithm = (input.algorithm ?? 'hmac-sha256').trim().toLowerCase();
  const algorithm = TSIG_ALGORITHMS.find((a) => a === rawAlgorithm);
  if (!algorithm) throw unknownAlgorithmError(rawAlgorithm);
  // Never echo any of the secret back: a refusal names only what is wrong with it.
  const secret = (input.secret ?? '').replace(/\s/g, '');
  if (!BASE64.test(secret) || secret === '')
    throw new DomainError('invalid_secret', 'Send "secret": the TSIG key\'s secret in base64, as in the server\'s key statement (tsig-keygen prints it).');
  const bytes = Buffer.from(secret, 'base64').length;
  if (bytes < 16 || bytes > 512)
    throw new DomainError(
      'invalid_secret',
      `The TSIG secret decodes to ${bytes} bytes; a key of 16 to 512 bytes is needed (tsig-keygen makes 32 for hmac-sha256).`,
    );
  // SSRF: the server must be a public address now, and is vetted again at each use (clients/dns-publishing/dns-server-address.ts).
  await refusalsAsDomainErrors(() => vetDnsServer(server, ctx.services.publishing.allowPrivateAddresses));
  return { settings: { server, port, keyName, algorithm }, secret };
}

function checkCloudflare(input: DnsConnectionInput): { settings: Record<string, never>; secret: string } {
  refuseFields(input, ['server', 'port', 'keyName', 'algorithm', 'secret'], 'cloudflare');
  const token = (input.apiToken ?? '').trim();
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(token))
    throw new DomainError(
      'invalid_api_token',
      'Send "api_token": a Cloudflare API token with the Zone > DNS > Edit permission (letters, digits, - and _, as Cloudflare shows it once).',
    );
  return { settings: {}, secret: token };
}
