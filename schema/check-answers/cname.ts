import { builder } from '../builder.js';
import type { checkCname } from '../../resolvers/checks/cname/check-cname.js';
import { CheckAnswer, type AnswerOf } from './common.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-cname: its answer, each object over the part of the resolver's return type it mirrors.
type Cname = AnswerOf<typeof checkCname>;

export const CnameHop = builder.objectRef<Cname['chain'][number]>('CnameHop').implement({
  description: 'One alias in the chain.',
  fields: (t) => ({
    name: t.exposeString('name'),
    target: t.exposeString('target'),
    ttl: t.exposeInt('ttl'),
  }),
});
export const CnameEnd = builder.objectRef<Cname['final']>('CnameEnd').implement({
  description: 'Where the chain ends and its addresses.',
  fields: (t) => ({
    name: t.exposeString('name'),
    addresses: t.exposeStringList('addresses'),
  }),
});
export const CnameAnswer = builder.objectRef<Cname>('CnameAnswer').implement({
  description: 'check-cname: the CNAME chain of a host.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    host: t.exposeString('host'),
    hostUnicode: t.exposeString('hostUnicode', { nullable: true, extensions: absentWhenNull() }),
    expected: t.exposeString('expected', { nullable: true }),
    chain: t.expose('chain', { type: [CnameHop] }),
    final: t.expose('final', { type: CnameEnd }),
    matchesExpected: t.exposeBoolean('matchesExpected', { nullable: true }),
  }),
});
