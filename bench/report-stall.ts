import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { serviceConfigFromEnv } from '../config/settings.js';
import { startService } from '../server/start-service.js';
import { seedDemo } from '../admin/seed-demo.js';
import { configureLog } from '../observability/log.js';
import { gzip, reportFixture } from '../test/support/report-files.js';
import { watchLoop } from './loop-watch.js';

/**
 * Does ingesting a report stall everyone else? The p99 of a cheap request (GET /healthz) while a
 * 10 MiB (uncompressed) DMARC report is ingested, by REST and by SMTP, over its p99 idle, in one
 * run on one service (embedded PGlite unless DATABASE_URL is set). Target: <= 2, and no single
 * request over 100 ms (docs/reports.md).
 *
 * The cheap requests come from a process of their own (bench/cheap-request-probe.mjs), as a real
 * caller's would. The idle p99 pools the cheap requests sent before and after the two ingests (the load of a shared
 * machine drifts over a run). Each phase also records its longest event-loop stall (the longest gap
 * between two turns of the loop), in wall time and in the main thread's own CPU time (Linux,
 * /proc/self/task/<pid>/stat, 10 ms ticks): on a loaded machine the wall figure also counts time
 * the thread was not scheduled, the CPU figure only the work that held the loop.
 */
export interface PhaseFigures {
  readonly p99_ms: number;
  readonly max_ms: number;
  readonly ratio: number;
  readonly ingest_ms: number;
  /** The longest gap between two turns of the event loop, wall clock. */
  readonly longest_stall_ms: number;
  /** The main thread's CPU time in the longest-CPU gap between two turns (null off Linux). */
  readonly longest_stall_cpu_ms: number | null;
  /** The main thread's CPU time over the whole phase (null off Linux). */
  readonly main_thread_cpu_ms: number | null;
}

export interface ReportStallFigures {
  readonly report_bytes: number;
  /** The SMTP message as sent: the report gzipped, in base64, in its MIME message. */
  readonly smtp_message_bytes: number;
  readonly idle_p50_ms: number;
  readonly idle_p99_ms: number;
  readonly idle_longest_stall_ms: number;
  readonly rest: PhaseFigures;
  readonly smtp: PhaseFigures;
}

const TEN_MIB = 10 * 1024 * 1024;

/** Google's report grown to 10 MiB with records of about 650 bytes (some 16,000: under the 20,000 cap). */
function bigReport(domain: string, reportId: string): string {
  const head = reportFixture('google.xml')
    .split('<record>')[0]!
    .replaceAll('northwind-mail.test', domain)
    .replace(/<report_id>[^<]*</, `<report_id>${reportId}<`);
  const parts: string[] = [head];
  let size = head.length;
  for (let i = 0; size < TEN_MIB - 1024; i++) {
    const record = `<record><row><source_ip>10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}</source_ip><count>${1 + (i % 50)}</count><policy_evaluated><disposition>none</disposition><dkim>${i % 7 === 0 ? 'fail' : 'pass'}</dkim><spf>pass</spf><reason><type>local_policy</type><comment>${'forwarded by a list '.repeat(6)}</comment></reason></policy_evaluated></row><identifiers><header_from>${domain}</header_from><envelope_from>${domain}</envelope_from></identifiers><auth_results><dkim><domain>${domain}</domain><selector>google</selector><result>pass</result></dkim><spf><domain>${domain}</domain><scope>mfrom</scope><result>pass</result></spf></auth_results></record>\n`;
    parts.push(record);
    size += record.length;
  }
  parts.push('</feedback>\n');
  return parts.join('');
}

function p99(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

/** The cheap requests' client, in a process of its own (bench/cheap-request-probe.mjs). */
interface Prober {
  /** Cheap requests one after another until `until` settles (or `count` of them when given): each one's latency. */
  probe(url: string, until: Promise<unknown> | null, count?: number): Promise<number[]>;
  close(): void;
}

function startProber(): Prober {
  const child = fork(fileURLToPath(new URL('./cheap-request-probe.mjs', import.meta.url)));
  return {
    async probe(url, until, count = 0) {
      const answer = new Promise<number[]>((resolve, reject) => {
        child.once('message', (message) => resolve((message as { latencies: number[] }).latencies));
        child.once('exit', (code) => reject(new Error(`the probe process exited (${code}) before answering`)));
      });
      child.send({ url, count: until === null ? count : 0 });
      if (until !== null) {
        await until.catch(() => undefined);
        child.send({ stop: true });
      }
      return answer;
    },
    close: () => child.kill(),
  };
}

export async function benchReportStall(): Promise<ReportStallFigures> {
  configureLog({ silent: true });
  const env = {
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory',
    PUBLIC_PORT: '0',
    API_PORT: '0',
    HOST: '127.0.0.1',
    REPORTS_SMTP_PORT: '0',
    REPORTS_DOMAIN: 'reports.bench.test',
    DNS_SERVERS: '127.0.0.1:9',
    DATABASE_URL: process.env.DATABASE_URL,
  };
  const service = await startService({ ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0 }, { env });
  const prober = startProber();
  const probe: Prober['probe'] = (url, until, count) => prober.probe(url, until, count);
  try {
    const demo = await seedDemo(service.services.db, 'test', new Date());
    const { domain } = await service.services.db
      .selectFrom('domains')
      .select('domain')
      .where('account_id', '=', demo.accountId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const health = `${service.apiUrl}/healthz`;
    await probe(health, null, 50);
    let watch = watchLoop();
    const idle = await probe(health, null, 300);
    const idleStall = watch();

    const restFile = gzip(bigReport(domain, 'stall-rest'));
    let started = performance.now();
    watch = watchLoop();
    const rest = fetch(`${service.apiUrl}/v1/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/gzip' },
      body: new Uint8Array(restFile),
    }).then(async (r) => {
      const body = (await r.json()) as { stored?: number; detail?: string };
      if (body.stored !== 1) throw new Error(`the REST report was not stored: ${body.detail}`);
    });
    const duringRest = await probe(health, rest);
    await rest;
    const restMs = performance.now() - started;
    const restStall = watch();

    // The message is written (report, gzip, MIME) before the clock and the loop watch start, as the
    // REST body is: a receiver's MTA does that on its own machine. Built inside the window, it was
    // the SMTP phase's longest stall (30-80 ms of this thread's CPU; 150 ms of work in one profile),
    // counted as the listener's (docs/performance.md).
    const message = await new MailComposer({
      from: 'noreply-dmarc-support@google.com',
      to: 'dmarc@reports.bench.test',
      subject: `Report Domain: ${domain} Submitter: google.com Report-ID: <stall-smtp>`,
      text: 'This is an aggregate report.',
      attachments: [{ filename: `google.com!${domain}!1!2.xml.gz`, content: gzip(bigReport(domain, 'stall-smtp')), contentType: 'application/gzip' }],
    })
      .compile()
      .build();
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service.reportsSmtpPort ?? 0, secure: false, ignoreTLS: true });
    started = performance.now();
    watch = watchLoop();
    const smtp = transport.sendMail({ envelope: { from: 'noreply-dmarc-support@google.com', to: ['dmarc@reports.bench.test'] }, raw: message });
    const duringSmtp = await probe(health, smtp);
    await smtp;
    transport.close();
    const smtpMs = performance.now() - started;
    const smtpStall = watch();
    watch = watchLoop();
    idle.push(...(await probe(health, null, 300)));
    const idleAfterStall = watch();
    const stored = await service.services.db.selectFrom('reports').select('report_id').where('report_id', '=', 'stall-smtp').execute();
    if (stored.length !== 1) throw new Error('the SMTP report was not stored');

    const idleP99 = p99(idle);
    const figures = (latencies: number[], ingestMs: number, stall: { wall: number; cpu: number | null; cpuTotal: number | null }): PhaseFigures => ({
      p99_ms: p99(latencies),
      max_ms: Math.max(...latencies),
      ratio: p99(latencies) / idleP99,
      ingest_ms: ingestMs,
      longest_stall_ms: stall.wall,
      longest_stall_cpu_ms: stall.cpu,
      main_thread_cpu_ms: stall.cpuTotal,
    });
    return {
      report_bytes: Buffer.byteLength(bigReport(domain, 'x')),
      smtp_message_bytes: message.length,
      idle_p50_ms: [...idle].sort((a, b) => a - b)[Math.floor(idle.length / 2)] ?? 0,
      idle_p99_ms: idleP99,
      idle_longest_stall_ms: Math.max(idleStall.wall, idleAfterStall.wall),
      rest: figures(duringRest, restMs, restStall),
      smtp: figures(duringSmtp, smtpMs, smtpStall),
    };
  } finally {
    prober.close();
    await service.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchReportStall(), null, 2));
}
