import { builder } from '../builder.js';
import type { checkDkim } from '../../resolvers/checks/dkim/check-dkim.js';
import { CheckAnswer, Finding, type AnswerOf } from './common.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-dkim: its answer, each object over the part of the resolver's return type it mirrors.
type Dkim = AnswerOf<typeof checkDkim>;

export const DkimKeyType = builder.enumType('DkimKeyType', { description: 'A DKIM key algorithm.', values: ['rsa', 'ed25519'] as const });
export const DkimKey = builder.objectRef<Dkim['keys'][number]>('DkimKey').implement({
  description: 'A DKIM key found under a selector.',
  fields: (t) => ({
    selector: t.exposeString('selector'),
    record: t.exposeString('record'),
    valid: t.exposeBoolean('valid'),
    keyType: t.expose('keyType', { type: DkimKeyType, nullable: true }),
    keyBits: t.exposeInt('keyBits', { nullable: true }),
    testing: t.exposeBoolean('testing'),
    hashAlgorithms: t.exposeStringList('hashAlgorithms'),
    serviceTypes: t.exposeStringList('serviceTypes'),
    findings: t.expose('findings', { type: [Finding] }),
  }),
});
export const DkimAnswer = builder.objectRef<Dkim>('DkimAnswer').implement({
  description: 'check-dkim: the key under a selector, or a scan of 26 common selectors.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true, extensions: absentWhenNull() }),
    selector: t.exposeString('selector', { nullable: true }),
    selectorsChecked: t.exposeStringList('selectorsChecked'),
    keys: t.expose('keys', { type: [DkimKey] }),
    domainkeyExists: t.exposeBoolean('domainkeyExists', { nullable: true }),
    wildcard: t.exposeBoolean('wildcard', { nullable: true }),
  }),
});
