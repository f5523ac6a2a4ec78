import { builder } from '../builder.js';
import type { CheckResultBase, Finding as FindingShape } from '../../resolvers/checks/check-result.js';
import type { CheckDnssec as CheckDnssecShape } from '../../resolvers/checks/dns/dnssec-tally.js';
import type { ExtendedDnsError as ExtendedDnsErrorShape } from '../../clients/dns/dns-types.js';

/*
 * What every check answers (the CheckAnswer interface: status, summary, findings, dnssec) and the
 * answer of a check the request's deadline cut off. Each check's own answer is in its own file here,
 * declared over the resolver's return type (resolvers/checks/**), so a field the resolver does not
 * return fails the type check; docs/checks.md explains each field.
 */

/** What a check's resolver returns: each answer object is declared over it. */
export type AnswerOf<Check extends (...args: never[]) => Promise<object>> = Awaited<ReturnType<Check>>;

export const CheckStatus = builder.enumType('CheckStatus', {
  description: "pass, warn (warnings), fail (errors); error when lookups failed or the request's bounds cut the check short.",
  values: ['pass', 'warn', 'fail', 'error'] as const,
});
export const Severity = builder.enumType('Severity', { description: 'How much a finding matters.', values: ['error', 'warning', 'info'] as const });
export const Finding = builder.objectRef<FindingShape>('Finding').implement({
  description: "One observation, with a stable code (docs/checks.md lists each check's codes) and a sentence saying what to change.",
  fields: (t) => ({
    severity: t.expose('severity', { type: Severity }),
    code: t.exposeString('code', { description: 'Stable, snake_case, documented in docs/checks.md.' }),
    message: t.exposeString('message', { description: 'A sentence a person can act on.' }),
  }),
});
export const DnssecStatus = builder.enumType('DnssecStatus', {
  description:
    'DNSSEC validation as the resolver reported it: secure (AD set), insecure (AD clear: unsigned, or a resolver that does not validate), ' +
    'bogus (SERVFAIL with an Extended DNS Error saying validation failed), indeterminate (the reply did not tell, or no reply). docs/dnssec.md.',
  values: ['secure', 'insecure', 'bogus', 'indeterminate'] as const,
});
export const ExtendedDnsError = builder.objectRef<ExtendedDnsErrorShape>('ExtendedDnsError').implement({
  description: "An Extended DNS Error (RFC 8914) from the resolver's reply, as the first reply gave it.",
  fields: (t) => ({
    code: t.exposeInt('code', { description: 'The INFO-CODE: 7 Signature Expired, 9 DNSKEY Missing, 6 DNSSEC Bogus, ...' }),
    meaning: t.exposeString('meaning', { description: 'The code in plain words.' }),
    text: t.exposeString('text', { nullable: true, description: "The resolver's EXTRA-TEXT, printable and at most 200 characters; null when it sent none." }),
  }),
});
export const CheckDnssec = builder.objectRef<CheckDnssecShape>('CheckDnssec').implement({
  description:
    'The DNSSEC status of the DNS answers a check used: the weakest of them (bogus, then indeterminate, then insecure, then secure), with the reason (docs/dnssec.md).',
  fields: (t) => ({
    status: t.expose('status', { type: DnssecStatus }),
    reason: t.exposeString('reason', { description: "A sentence: the resolver's reason, or what the answers showed." }),
    answers: t.exposeInt('answers', { description: 'Distinct questions (name and type) the check asked the resolver.' }),
    validated: t.exposeInt('validated', { description: 'Of those, the answers the resolver validated (AD set).' }),
    name: t.exposeString('name', { nullable: true, description: 'The name whose answer decided the status; null when secure.' }),
    type: t.exposeString('type', { nullable: true, description: 'Its record type; null when secure.' }),
    extendedDnsError: t.expose('extendedDnsError', {
      type: ExtendedDnsError,
      nullable: true,
      description: "That answer's Extended DNS Error; null when it carried none.",
    }),
  }),
});
export const CheckAnswer = builder.interfaceRef<CheckResultBase>('CheckAnswer').implement({
  description: 'What every check answers: select these with `... on CheckAnswer { status summary findings { code } }` on any check field.',
  fields: (t) => ({
    status: t.expose('status', { type: CheckStatus }),
    summary: t.exposeString('summary', { description: 'One sentence.' }),
    findings: t.expose('findings', { type: [Finding] }),
    dnssec: t.expose('dnssec', {
      type: CheckDnssec,
      nullable: true,
      description: 'The DNSSEC status of the DNS answers the check used (docs/dnssec.md); null when it asked no DNS question.',
    }),
  }),
});
/** The answer when the request's deadline passed before the check returned anything: only the common fields (dnssec of the lookups made so far). */
export const UnfinishedCheck = builder.objectRef<CheckResultBase>('UnfinishedCheck').implement({
  description:
    "A check the request's deadline (CHECKS_DEADLINE_MS) cut off before it answered: status error, the reason as summary and first finding (code deadline_passed).",
  interfaces: [CheckAnswer],
});
