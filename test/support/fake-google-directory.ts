import { createServer, type Server } from 'node:http';
import { createPublicKey, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';

/**
 * A local fake of the Google endpoints the Google Workspace adapter calls, spoken to by the real
 * client (@googleapis/admin): the service-account token exchange (a JWT signed with the key's
 * private key, checked here with its public key, as Google does) and the Directory API's
 * users.insert, users.get and users.update (a password, or `suspended` true or false: suspending and
 * reactivating). Errors are answered in Google's shape.
 */
export interface FakeGoogleUser {
  primaryEmail: string;
  name: { givenName: string; familyName: string };
  password: string;
  suspended: boolean;
}

export interface FakeGoogleDirectory {
  readonly apiBase: string;
  readonly tokenUrl: string;
  /** The service account key file's contents (JSON), as Google hands it out. */
  readonly serviceAccountKey: string;
  readonly clientEmail: string;
  readonly users: Map<string, FakeGoogleUser>;
  /** users.insert answers this error for addresses on these domains (a domain not on the Workspace account). */
  readonly refuseDomains: Set<string>;
  /** Every call: method, path, the acting admin, and the `suspended` an update sent (null when it sent none). */
  readonly calls: { method: string; path: string; subject: string | null; suspended: boolean | null }[];
  close(): Promise<void>;
}

function googleError(code: number, message: string, reason: string): string {
  return JSON.stringify({ error: { code, message, errors: [{ message, domain: 'global', reason }] } });
}

function decodeJwt(assertion: string): { header: any; claims: any; signed: string; signature: Buffer } {
  const [h, c, s] = assertion.split('.');
  return {
    header: JSON.parse(Buffer.from(h!, 'base64url').toString()),
    claims: JSON.parse(Buffer.from(c!, 'base64url').toString()),
    signed: `${h}.${c}`,
    signature: Buffer.from(s!, 'base64url'),
  };
}

export async function startFakeGoogleDirectory(): Promise<FakeGoogleDirectory> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKey = createPublicKey(privateKey);
  const clientEmail = 'provisioner@inbox-project.iam.gserviceaccount.com';
  const tokens = new Map<string, string>();
  const users = new Map<string, FakeGoogleUser>();
  const refuseDomains = new Set<string>();
  const calls: FakeGoogleDirectory['calls'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(raw);
        const jwt = decodeJwt(form.get('assertion') ?? '..');
        const valid =
          form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
          jwt.header.alg === 'RS256' &&
          createVerify('RSA-SHA256').update(jwt.signed).verify(publicKey, jwt.signature) &&
          jwt.claims.iss === clientEmail &&
          String(jwt.claims.scope).split(' ').includes('https://www.googleapis.com/auth/admin.directory.user');
        if (!valid) return send(400, JSON.stringify({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }));
        const token = `ya29.${randomBytes(16).toString('hex')}`;
        tokens.set(token, String(jwt.claims.sub ?? ''));
        return send(200, JSON.stringify({ access_token: token, expires_in: 3600, token_type: 'Bearer' }));
      }
      const subject = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, '')) ?? null;
      const body = raw ? JSON.parse(raw) : {};
      calls.push({ method: req.method ?? '', path: url.pathname, subject, suspended: typeof body.suspended === 'boolean' ? body.suspended : null });
      if (subject === null) return send(401, googleError(401, 'Request had invalid authentication credentials.', 'authError'));
      const match = /^\/admin\/directory\/v1\/users(?:\/([^/]+))?$/.exec(url.pathname);
      if (!match) return send(404, googleError(404, 'Not Found', 'notFound'));
      const userKey = match[1] ? decodeURIComponent(match[1]).toLowerCase() : null;
      if (req.method === 'POST' && userKey === null) {
        const email = String(body.primaryEmail).toLowerCase();
        if (refuseDomains.has(email.split('@')[1]!)) return send(412, googleError(412, 'Domain not found.', 'conditionNotMet'));
        if (users.has(email)) return send(409, googleError(409, 'Entity already exists.', 'duplicate'));
        const user: FakeGoogleUser = { primaryEmail: email, name: body.name, password: body.password, suspended: false };
        users.set(email, user);
        return send(200, JSON.stringify({ kind: 'admin#directory#user', primaryEmail: email, name: user.name, suspended: false }));
      }
      const user = userKey === null ? undefined : users.get(userKey);
      if (!user) return send(404, googleError(404, 'Resource Not Found: userKey', 'notFound'));
      if (req.method === 'GET')
        return send(200, JSON.stringify({ kind: 'admin#directory#user', primaryEmail: user.primaryEmail, name: user.name, suspended: user.suspended }));
      if (req.method === 'PUT') {
        if (typeof body.password === 'string') user.password = body.password;
        if (typeof body.suspended === 'boolean') user.suspended = body.suspended;
        return send(200, JSON.stringify({ kind: 'admin#directory#user', primaryEmail: user.primaryEmail, suspended: user.suspended }));
      }
      return send(405, googleError(405, 'Method not allowed.', 'badRequest'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    apiBase: `${base}/`,
    tokenUrl: `${base}/token`,
    serviceAccountKey: JSON.stringify({
      type: 'service_account',
      client_email: clientEmail,
      private_key: privateKeyPem,
      token_uri: 'https://oauth2.googleapis.com/token',
    }),
    clientEmail,
    users,
    refuseDomains,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
