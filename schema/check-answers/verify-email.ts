import { builder } from '../builder.js';
import type { verifyEmail } from '../../resolvers/checks/verify-email/verify-email.js';
import { CheckAnswer, Finding, type AnswerOf } from './common.js';

// verify-email: its answer, each object over the part of the resolver's return type it mirrors.
type VerifyEmail = AnswerOf<typeof verifyEmail>;
type EmailResultShape = VerifyEmail['results'][number];

export const EmailReason = builder.enumType('EmailReason', {
  description: 'Why an address is or is not deliverable.',
  values: [
    'deliverable',
    'invalid_syntax',
    'null_mx',
    'no_mail_route',
    'domain_not_found',
    'mail_hosts_do_not_resolve',
    'dns_lookup_failed',
    'mail_hosts_not_looked_up',
  ] as const,
});
export const MxPreference = builder.objectRef<EmailResultShape['mx'][number]>('MxPreference').implement({
  description: 'An MX record: exchange and preference.',
  fields: (t) => ({
    preference: t.exposeInt('preference'),
    exchange: t.exposeString('exchange'),
  }),
});
export const EmailResult = builder.objectRef<EmailResultShape>('EmailResult').implement({
  description: 'One address.',
  fields: (t) => ({
    email: t.exposeString('email'),
    valid: t.exposeBoolean('valid', { nullable: true, description: 'true: DNS says mail can be delivered; false: it cannot; null: a lookup failed.' }),
    syntaxValid: t.exposeBoolean('syntaxValid'),
    reason: t.expose('reason', { type: EmailReason }),
    detail: t.exposeString('detail'),
    domain: t.exposeString('domain', { nullable: true }),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true }),
    mx: t.expose('mx', { type: [MxPreference] }),
    implicitMx: t.exposeBoolean('implicitMx'),
    nullMx: t.exposeBoolean('nullMx'),
    disposable: t.exposeBoolean('disposable'),
    role: t.exposeBoolean('role'),
    mxIssues: t.expose('mxIssues', {
      type: [Finding],
      description: 'Broken MX rules of the domain, each saying what to change.',
    }),
  }),
});
export const EmailCounts = builder.objectRef<VerifyEmail['counts']>('EmailCounts').implement({
  description: 'Addresses per verdict.',
  fields: (t) => ({
    valid: t.exposeInt('valid'),
    invalid: t.exposeInt('invalid'),
    unknown: t.exposeInt('unknown'),
    disposable: t.exposeInt('disposable'),
    role: t.exposeInt('role'),
  }),
});
export const VerifyEmailAnswer = builder.objectRef<VerifyEmail>('VerifyEmailAnswer').implement({
  description: 'verify-email: per address, syntax, live MX, disposable and role.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    results: t.expose('results', { type: [EmailResult] }),
    counts: t.expose('counts', { type: EmailCounts }),
    catchAllNote: t.exposeString('catchAllNote'),
  }),
});
