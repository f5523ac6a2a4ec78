import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { AlertMailer } from '../clients/mail/alert-mailer.js';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ingestReports } from '../resolvers/reports/ingest-reports.js';
import { ReportPoolBusy, type ReportPool } from '../resolvers/reports/report-pool.js';
import { joinIntoSharedMemory } from '../resolvers/reports/join-into-shared-memory.js';
import { findReportDomainOwner } from '../db/reports.js';
import { recordReportFile, recordReportSmtpConnection, recordReportSmtpRefusal } from '../observability/metrics.js';
import { log } from '../observability/log.js';

export interface ReportSmtpOptions {
  readonly port: number;
  readonly host: string;
  /** REPORTS_DOMAIN: mail is taken for dmarc@ and tls-reports@ this domain only. */
  readonly reportsDomain: string;
  /** REPORTS_SMTP_MAX_BYTES: advertised with SIZE and enforced while the message streams in. */
  readonly maxBytes: number;
  /** REPORTS_SMTP_TLS_CERT / REPORTS_SMTP_TLS_KEY: PEM files read once at start; with them the listener offers STARTTLS. */
  readonly tls?: { readonly certFile: string; readonly keyFile: string } | null;
  readonly db: Kysely<Database>;
  /** The threads that unpack and parse what arrives (report-pool.ts): nothing a stranger sent is decoded on the main thread. */
  readonly pool: ReportPool;
  /** DNS_SERVERS: where the DKIM keys of a report message are asked (only a report its reporter signed counts, docs/reports.md). */
  readonly dkimDnsServers?: readonly string[];
  /** How the listener holds up against one address (docs/reports.md, "Holding up"); defaults as the settings'. */
  readonly limits?: Partial<ReportSmtpLimits>;
  /** REPORTS_POSTMASTER_FORWARD with the alert mailer: mail to postmaster@ goes there; without, it is logged and dropped. */
  readonly postmaster?: { readonly forwardTo: string; readonly mailer: AlertMailer } | null;
}

export interface ReportSmtpLimits {
  /** REPORTS_SMTP_PER_ADDRESS: connections one remote address may hold open at once; more are answered 421. */
  readonly perAddress: number;
  /** REPORTS_SMTP_MESSAGE_DEADLINE_MS: the longest one message's DATA may take; then the connection is dropped. */
  readonly messageDeadlineMs: number;
  /** REPORTS_SMTP_MIN_BYTES_PER_SECOND over each REPORTS_SMTP_RATE_WINDOW_MS: a connection sending less while we wait for it is dropped. */
  readonly minBytesPerSecond: number;
  readonly rateWindowMs: number;
}

const DEFAULT_LIMITS: ReportSmtpLimits = { perAddress: 3, messageDeadlineMs: 300_000, minBytesPerSecond: 100, rateWindowMs: 30_000 };

/** One open connection: its socket, and whether it is our turn (processing a message), when its silence is not its fault. */
interface OpenConnection {
  readonly socket: Socket;
  readonly address: string;
  busy: boolean;
  bytesAtCheck: number;
  timer: NodeJS.Timeout;
}

/** The address as one key whatever its spelling (IPv4-mapped IPv6 is IPv4), the same for the socket and smtp-server's session. */
function addressKey(raw: string | undefined): string {
  try {
    return ipaddr.process(raw ?? '').toString();
  } catch {
    return raw ?? '';
  }
}

/** Reads a PEM file named by a setting, or stops the start with a sentence naming the setting. */
function readPem(path: string, variable: string, kind: RegExp): Buffer {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    throw new Error(`${variable} "${path}" cannot be read (${code}); point it at a PEM file or unset both REPORTS_SMTP_TLS_CERT and REPORTS_SMTP_TLS_KEY.`);
  }
  if (!kind.test(pem.toString('latin1')))
    throw new Error(`${variable} "${path}" holds no PEM ${variable.endsWith('CERT') ? 'certificate' : 'private key'}; point it at the right file.`);
  return pem;
}

/** At most this many domains a message names are looked up (a message carries at most 20 reports). */
const MAX_NAMED_DOMAINS = 20;

/**
 * One message, read in the report pool's threads: first screened (the domains its subject and file
 * names give, nothing decoded), and dropped unread unless one of them belongs to an account; then
 * unpacked and parsed, each report stored only for a domain the message named. A dropped message is
 * still accepted (250): senders do not read bounces, and a refusal would tell a stranger which
 * domains are customers'.
 */
async function readMessage(options: ReportSmtpOptions, session: SMTPServerSession, bytes: Buffer): Promise<void> {
  const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
  const screen = await options.pool.screen(bytes);
  const owned: string[] = [];
  for (const domain of screen.domains.slice(0, MAX_NAMED_DOMAINS)) if (await findReportDomainOwner(options.db, domain)) owned.push(domain);
  if (owned.length === 0) {
    const reason = screen.domains.length === 0 ? 'no_domain' : 'unknown_domain';
    recordReportSmtpRefusal(reason);
    recordReportFile('smtp', 'unknown', 'unknown_domain');
    log('info', 'report_message_dropped', {
      remote: session.remoteAddress,
      from,
      reason,
      named: screen.domains.slice(0, MAX_NAMED_DOMAINS),
      bytes: bytes.length,
    });
    return;
  }
  const files = await ingestReports(options.db, options.pool, `smtp:${session.id}`, bytes, {
    via: 'smtp',
    allowMessage: true,
    expectedDomains: owned,
    dkimDnsServers: options.dkimDnsServers ?? [],
  });
  log('info', 'report_message', {
    remote: session.remoteAddress,
    from,
    files: files.map((f) => ({ status: f.status, kind: f.kind, org: f.orgName, domain: f.domain, authenticated: f.authenticated, code: f.code })),
  });
}

/** At most this much of a postmaster message is forwarded (as text: it is a stranger's). */
const POSTMASTER_FORWARD_BYTES = 64 * 1024;

/** Mail for postmaster@: forwarded to the operator (REPORTS_POSTMASTER_FORWARD) when set, else logged and dropped. */
async function handlePostmaster(options: ReportSmtpOptions, session: SMTPServerSession, bytes: Buffer): Promise<void> {
  const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
  recordReportSmtpRefusal('postmaster');
  if (!options.postmaster) {
    log('info', 'report_postmaster_dropped', { remote: session.remoteAddress, from, bytes: bytes.length });
    return;
  }
  await options.postmaster.mailer.send({
    to: options.postmaster.forwardTo,
    subject: `Mail for postmaster@${options.reportsDomain} from ${from ?? 'an empty sender'}`,
    text: `Received from ${session.remoteAddress} (${bytes.length} bytes); the message as it arrived${bytes.length > POSTMASTER_FORWARD_BYTES ? `, its first ${POSTMASTER_FORWARD_BYTES} bytes` : ''}:\n\n${bytes.subarray(0, POSTMASTER_FORWARD_BYTES).toString('latin1')}`,
    id: `postmaster-${session.id}`,
  });
  log('info', 'report_postmaster_forwarded', { remote: session.remoteAddress, from, to: options.postmaster.forwardTo });
}

/** The local parts receivers send reports to: the DMARC record's rua and the TLS-RPT record's rua (docs/reports.md). */
export const REPORT_MAILBOXES = ['dmarc', 'tls-reports'] as const;

class SmtpRefusal extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The SMTP listener for DMARC aggregate and TLS-RPT reports (REPORTS_SMTP_PORT), on smtp-server: no
 * AUTH, STARTTLS when a certificate is configured, recipients limited to the report addresses, the size enforced as the message arrives. A
 * message is parsed (mailparser) and each report in it stored; it is accepted (250) once read, even
 * when a report in it is refused (the reason goes to the log and metrics: senders do not read bounces).
 */
export async function serveReportSmtp(options: ReportSmtpOptions): Promise<{ readonly port: number; close(): Promise<void> }> {
  const addresses = new Set(REPORT_MAILBOXES.map((local) => `${local}@${options.reportsDomain}`.toLowerCase()));
  // RFC 5321 section 4.5.1: a receiver must take mail for postmaster (with its domain, and bare).
  const postmaster = new Set([`postmaster@${options.reportsDomain}`.toLowerCase(), 'postmaster']);
  const limits: ReportSmtpLimits = { ...DEFAULT_LIMITS, ...options.limits };
  // Open connections by "address port", and how many each address holds.
  const open = new Map<string, OpenConnection>();
  const perAddress = new Map<string, number>();
  const connectionOf = (session: SMTPServerSession) => open.get(`${addressKey(session.remoteAddress)} ${session.remotePort}`);
  const tls = options.tls
    ? {
        cert: readPem(options.tls.certFile, 'REPORTS_SMTP_TLS_CERT', /-----BEGIN CERTIFICATE-----/),
        key: readPem(options.tls.keyFile, 'REPORTS_SMTP_TLS_KEY', /-----BEGIN [A-Z ]*PRIVATE KEY-----/),
      }
    : null;
  const server = new SMTPServer({
    name: options.reportsDomain,
    banner: 'DMARC and TLS-RPT reports only',
    authOptional: true,
    // Without a certificate STARTTLS is refused outright, not only left out of EHLO: smtp-server would
    // otherwise answer it with the self-signed key it bundles, which is no one's certificate.
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    // STARTTLS is offered only with a certificate (REPORTS_SMTP_TLS_CERT and _KEY): receivers that
    // find it use it (Google and Microsoft do), and one that does not may still send in clear text,
    // as SMTP between servers allows (RFC 3207).
    ...(tls ? { secure: false, key: tls.key, cert: tls.cert, minVersion: 'TLSv1.2' as const } : { hideSTARTTLS: true }),
    size: options.maxBytes,
    maxClients: 50,
    socketTimeout: 60_000,
    // The client's name is not used: no reverse lookup (a DNS question per connection, before the greeting).
    disableReverseLookup: true,
    logger: false,
    onConnect(session: SMTPServerSession, callback: (error?: Error | null) => void) {
      const address = addressKey(session.remoteAddress);
      if ((perAddress.get(address) ?? 0) > limits.perAddress) {
        recordReportSmtpConnection('per_address');
        log('warn', 'report_smtp_refused', { remote: session.remoteAddress, reason: 'per_address', limit: limits.perAddress });
        return callback(new SmtpRefusal(421, `Too many connections from your address (at most ${limits.perAddress}); try again later`));
      }
      recordReportSmtpConnection('accepted');
      return callback();
    },
    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback: (error?: Error | null) => void) {
      const recipient = address.address.toLowerCase();
      if (addresses.has(recipient) || postmaster.has(recipient)) return callback();
      return callback(new SmtpRefusal(550, `No such mailbox: this server takes reports for ${[...addresses].join(' and ')} only`));
    },
    onData(stream: Readable & { sizeExceeded?: boolean }, session: SMTPServerSession, callback: (error?: Error | null) => void) {
      const chunks: Buffer[] = [];
      let size = 0;
      const connection = connectionOf(session);
      // The whole message within the deadline, whatever its pace: past it the connection is dropped.
      const deadline = setTimeout(() => {
        recordReportSmtpRefusal('deadline');
        log('warn', 'report_smtp_dropped', { remote: session.remoteAddress, reason: 'deadline', deadline_ms: limits.messageDeadlineMs, bytes: size });
        connection?.socket.destroy();
      }, limits.messageDeadlineMs);
      connection?.socket.once('close', () => clearTimeout(deadline));
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // Past the limit the rest is read and thrown away; smtp-server marks sizeExceeded.
        if (size <= options.maxBytes) chunks.push(chunk);
      });
      stream.once('error', (error: Error) => callback(new SmtpRefusal(451, `The message could not be read (${error.message}); try again later`)));
      stream.once('end', () => {
        clearTimeout(deadline);
        if (stream.sizeExceeded || size > options.maxBytes) {
          recordReportSmtpRefusal('too_large');
          log('warn', 'report_message_too_large', { bytes: size, max: options.maxBytes, remote: session.remoteAddress });
          return callback(new SmtpRefusal(552, `Message exceeds the ${options.maxBytes} byte limit`));
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const forPostmaster = recipients.some((r) => postmaster.has(r));
        const forReports = recipients.some((r) => addresses.has(r));
        // Our turn: the client waits for our answer, so its silence is not slowness.
        if (connection) connection.busy = true;
        const done = () => {
          if (connection) {
            connection.busy = false;
            connection.bytesAtCheck = connection.socket.bytesRead;
          }
        };
        // In shared memory: the report pool's threads read it where it lies, no copy per task.
        const message = joinIntoSharedMemory(chunks);
        Promise.all([
          forPostmaster ? handlePostmaster(options, session, message) : undefined,
          forReports ? readMessage(options, session, message) : undefined,
        ]).then(
          () => {
            done();
            callback();
          },
          (error: unknown) => {
            done();
            if (error instanceof ReportPoolBusy) {
              log('warn', 'report_message_deferred', { remote: session.remoteAddress, reason: error.message });
              recordReportSmtpRefusal('busy');
              return callback(new SmtpRefusal(451, 'Every report worker is busy; try again later'));
            }
            log('error', 'report_message_failed', { reason: error instanceof Error ? error.message : String(error) });
            callback(new SmtpRefusal(451, 'The report could not be stored; try again later'));
          },
        );
      });
    },
  });
  // Every connection, from its first byte: counted per address (onConnect refuses past the cap) and
  // held to a minimum rate over each window while it is the client's turn to send.
  // Ahead of smtp-server's own listener, so onConnect already counts this connection.
  server.server.prependListener('connection', (socket: Socket) => {
    const address = addressKey(socket.remoteAddress);
    const key = `${address} ${socket.remotePort}`;
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    const minimum = (limits.minBytesPerSecond * limits.rateWindowMs) / 1000;
    const connection: OpenConnection = {
      socket,
      address,
      busy: false,
      bytesAtCheck: 0,
      timer: setInterval(() => {
        const sent = socket.bytesRead - connection.bytesAtCheck;
        connection.bytesAtCheck = socket.bytesRead;
        if (connection.busy || sent >= minimum) return;
        recordReportSmtpRefusal('too_slow');
        log('warn', 'report_smtp_dropped', { remote: socket.remoteAddress, reason: 'too_slow', bytes: sent, window_ms: limits.rateWindowMs });
        socket.destroy();
      }, limits.rateWindowMs),
    };
    open.set(key, connection);
    socket.once('close', () => {
      clearInterval(connection.timer);
      open.delete(key);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  server.on('error', (error: Error) => log('warn', 'report_smtp_error', { reason: error.message }));
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
