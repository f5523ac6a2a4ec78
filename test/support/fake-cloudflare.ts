import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stateful local stand-in for the Cloudflare API endpoints the DNS publisher calls, speaking the
 * real API's JSON envelopes ({success, errors, messages, result, result_info}) so the official SDK
 * can be pointed at it (CLOUDFLARE_API_BASE): list zones by name; list, create, update, delete and
 * batch DNS records (the batch runs deletes, then posts, all or nothing, as Cloudflare's does).
 * Only a request with `Authorization: Bearer <token>` for the token given here is served; any other
 * gets Cloudflare's 401 (code 10000). Every request is recorded for the tests to count.
 */
export interface FakeCloudflareRecord {
  id: string;
  zone_id: string;
  zone_name: string;
  name: string;
  type: string;
  content: string;
  ttl: number;
  priority?: number;
  proxied: boolean;
  proxiable: boolean;
  settings: Record<string, never>;
  meta: Record<string, never>;
  tags: string[];
  comment: string | null;
  created_on: string;
  modified_on: string;
}

export interface FakeCloudflare {
  /** http://127.0.0.1:PORT/client/v4, for CLOUDFLARE_API_BASE. */
  readonly url: string;
  readonly token: string;
  readonly requests: { readonly method: string; readonly path: string; readonly authorization: string | null }[];
  records(zone: string): FakeCloudflareRecord[];
  addRecord(zone: string, record: { name: string; type: string; content: string; ttl?: number; priority?: number }): void;
  /** Answer every listing of a zone's records with a 503 (Cloudflare failing the read), or null to answer them again. */
  failReads(zone: string | null): void;
  close(): Promise<void>;
}

const id = () => randomBytes(16).toString('hex');

export async function startFakeCloudflare(zoneNames: readonly string[], token = `cf_${randomBytes(20).toString('hex')}`): Promise<FakeCloudflare> {
  const zones = zoneNames.map((name) => ({ id: id(), name, records: [] as FakeCloudflareRecord[] }));
  let failingReads: string | null = null;
  const requests: { method: string; path: string; authorization: string | null }[] = [];
  const zoneById = (zoneId: string) => zones.find((z) => z.id === zoneId);
  const makeRecord = (zone: (typeof zones)[number], body: Record<string, unknown>): FakeCloudflareRecord | string => {
    const type = String(body.type ?? '');
    const name = String(body.name ?? '').toLowerCase();
    if (!['A', 'AAAA', 'CNAME', 'MX', 'TXT'].includes(type)) return `DNS record type "${type}" is invalid`;
    if (name !== zone.name && !name.endsWith(`.${zone.name}`)) return 'DNS name is invalid: not in this zone';
    if (typeof body.content !== 'string' || body.content === '') return 'content is required';
    if (type === 'MX' && typeof body.priority !== 'number') return 'priority is required for MX';
    const ttl = typeof body.ttl === 'number' ? body.ttl : 1;
    if (ttl !== 1 && (ttl < 60 || ttl > 86_400)) return 'ttl must be between 60 and 86400 seconds, or 1 for Automatic';
    const now = new Date().toISOString();
    return {
      id: id(),
      zone_id: zone.id,
      zone_name: zone.name,
      name,
      type,
      content: body.content,
      ttl,
      ...(type === 'MX' && { priority: Number(body.priority) }),
      proxied: body.proxied === true,
      proxiable: type !== 'TXT' && type !== 'MX',
      settings: {},
      meta: {},
      tags: [],
      comment: null,
      created_on: now,
      modified_on: now,
    };
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const ok = (res: ServerResponse, result: unknown, resultInfo?: unknown) =>
    send(res, 200, { success: true, errors: [], messages: [], result, ...(resultInfo !== undefined && { result_info: resultInfo }) });
  const fail = (res: ServerResponse, status: number, code: number, message: string) =>
    send(res, status, { success: false, errors: [{ code, message }], messages: [], result: null });
  const page = (res: ServerResponse, items: unknown[], url: URL) => {
    const perPage = Number(url.searchParams.get('per_page') ?? 20);
    const pageNo = Number(url.searchParams.get('page') ?? 1);
    const slice = items.slice((pageNo - 1) * perPage, pageNo * perPage);
    ok(res, slice, {
      page: pageNo,
      per_page: perPage,
      count: slice.length,
      total_count: items.length,
      total_pages: Math.max(1, Math.ceil(items.length / perPage)),
    });
  };
  const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text ? JSON.parse(text) : {};
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const authorization = req.headers.authorization ?? null;
      requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, authorization });
      if (authorization !== `Bearer ${token}`) return fail(res, 401, 10000, 'Authentication error');
      const path = url.pathname.replace(/^\/client\/v4/, '');
      if (req.method === 'GET' && path === '/zones') {
        const name = url.searchParams.get('name');
        return page(
          res,
          zones.filter((z) => !name || z.name === name).map((z) => ({ id: z.id, name: z.name, status: 'active', paused: false, type: 'full' })),
          url,
        );
      }
      const match = /^\/zones\/([0-9a-f]+)\/dns_records(?:\/(batch|[0-9a-f]+))?$/.exec(path);
      const zone = match ? zoneById(match[1]!) : undefined;
      if (!match || !zone) return fail(res, 404, 7003, 'Could not route to the requested resource');
      const sub = match[2];
      if (req.method === 'GET' && !sub) {
        if (failingReads === zone.name) return fail(res, 503, 10000, 'Service temporarily unavailable');
        const name = (url.searchParams.get('name.exact') ?? url.searchParams.get('name'))?.toLowerCase();
        const type = url.searchParams.get('type');
        return page(
          res,
          zone.records.filter((r) => (!name || r.name === name) && (!type || r.type === type)),
          url,
        );
      }
      const body = req.method === 'GET' || req.method === 'DELETE' ? {} : await readBody(req);
      if (req.method === 'POST' && sub === 'batch') {
        const deletes = Array.isArray(body.deletes) ? body.deletes : [];
        const posts = Array.isArray(body.posts) ? body.posts : [];
        const deleted: FakeCloudflareRecord[] = [];
        for (const d of deletes) {
          const found = zone.records.find((r) => r.id === (d as { id?: unknown }).id);
          if (!found) return fail(res, 404, 81044, 'Record does not exist.');
          deleted.push(found);
        }
        const made: FakeCloudflareRecord[] = [];
        for (const p of posts) {
          const record = makeRecord(zone, p as Record<string, unknown>);
          if (typeof record === 'string') return fail(res, 400, 9000, record);
          made.push(record);
        }
        const remaining = zone.records.filter((r) => !deleted.includes(r));
        for (const r of made)
          if (remaining.some((e) => e.name === r.name && e.type === r.type && e.content === r.content))
            return fail(res, 400, 81058, 'An identical record already exists.');
        zone.records = [...remaining, ...made];
        return ok(res, { deletes: deleted, posts: made, patches: [], puts: [] });
      }
      if (req.method === 'POST' && !sub) {
        const record = makeRecord(zone, body);
        if (typeof record === 'string') return fail(res, 400, 9000, record);
        zone.records.push(record);
        return ok(res, record);
      }
      const existing = zone.records.find((r) => r.id === sub);
      if (!existing) return fail(res, 404, 81044, 'Record does not exist.');
      if (req.method === 'DELETE') {
        zone.records = zone.records.filter((r) => r !== existing);
        return ok(res, { id: existing.id });
      }
      if (req.method === 'PUT' || req.method === 'PATCH') {
        const record = makeRecord(zone, { ...(req.method === 'PATCH' && existing), ...body });
        if (typeof record === 'string') return fail(res, 400, 9000, record);
        Object.assign(existing, { ...record, id: existing.id, created_on: existing.created_on });
        return ok(res, existing);
      }
      return fail(res, 405, 10405, 'Method not allowed');
    })().catch((error: Error) => fail(res, 500, 10001, error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/client/v4`,
    token,
    requests,
    records: (name) => zones.find((z) => z.name === name)?.records ?? [],
    addRecord(name, record) {
      const zone = zones.find((z) => z.name === name);
      if (!zone) throw new Error(`no zone ${name}`);
      const made = makeRecord(zone, { ttl: 300, ...record });
      if (typeof made === 'string') throw new Error(made);
      zone.records.push(made);
    },
    failReads(zone) {
      failingReads = zone;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
