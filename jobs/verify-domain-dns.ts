import type { Services } from '../resolvers/context.js';
import { checkDns } from '../resolvers/checks/dns-records/check-dns.js';
import { checkSpf } from '../resolvers/checks/spf/check-spf.js';
import { checkDkim } from '../resolvers/checks/dkim/check-dkim.js';
import { checkDmarc } from '../resolvers/checks/dmarc/check-dmarc.js';
import type { CheckResultBase } from '../resolvers/checks/check-result.js';
import { recordCheckOutcome } from '../observability/metrics.js';
import { jobCheckContext } from './job-check-context.js';

export interface BuildProblem {
  /** build_mx_missing, build_spf, build_dkim, build_dmarc, build_forwarding (docs/checks.md). */
  readonly code: string;
  readonly message: string;
}

/**
 * Our own checks over the DNS a built domain needs: mail hosts (MX), SPF, DKIM, DMARC, and the web
 * address that forwards to the customer's site. Each problem is a sentence naming what to publish.
 */
export async function verifyDomainDns(services: Services, domain: string, forwardTo: string | null): Promise<BuildProblem[]> {
  const { checks } = jobCheckContext(services);
  const [mx, spf, dkim, dmarc, web] = await Promise.all([
    checkDns({ domain, type: 'MX' }, checks),
    checkSpf({ domain }, checks),
    checkDkim({ domain }, checks),
    checkDmarc({ domain }, checks),
    forwardTo ? checkDns({ domain, type: 'A' }, checks) : Promise.resolve(null),
  ]);
  const problems: BuildProblem[] = [];
  const add = (code: string, check: string, answer: CheckResultBase | null, lead: string) => {
    if (!answer) return;
    recordCheckOutcome(check, answer.status, 'job');
    if (answer.status !== 'fail' && answer.status !== 'error') return;
    const first = answer.findings.find((f) => f.severity === 'error')?.message ?? answer.summary;
    problems.push({ code, message: `${lead} ${first}` });
  };
  recordCheckOutcome('check-dns', mx.status, 'job');
  if (mx.records.length === 0)
    problems.push({
      code: 'build_mx_missing',
      message: `Mail hosts (MX): ${mx.summary} Mail to the inboxes cannot arrive until the MX records of your setup are published.`,
    });
  add('build_spf', 'check-spf', spf, 'SPF:');
  add('build_dkim', 'check-dkim', dkim, 'DKIM:');
  add('build_dmarc', 'check-dmarc', dmarc, 'DMARC:');
  if (web && web.records.length === 0) {
    problems.push({
      code: 'build_forwarding',
      message: `${domain} has no web address (A record), so visitors are not forwarded to ${forwardTo}; publish the forwarding record shown in your setup.`,
    });
  }
  return problems;
}
