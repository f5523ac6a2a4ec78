import { UnfinishedCheck } from './common.js';
import { SpfAnswer } from './spf.js';
import { DkimAnswer } from './dkim.js';
import { DmarcAnswer } from './dmarc.js';
import { BimiAnswer } from './bimi.js';
import { MtaStsAnswer } from './mta-sts.js';
import { DnsAnswer, DnsType } from './dns.js';
import { CnameAnswer } from './cname.js';
import { BlacklistAnswer } from './blacklist.js';
import { UriblAnswer } from './uribl.js';
import { NameserversAnswer } from './nameservers.js';
import { DomainExpiryAnswer } from './domain-expiry.js';
import { ProviderDomainAnswer } from './provider-domain.js';
import { VerifyEmailAnswer } from './verify-email.js';
import { SegmentEspAnswer } from './segment-esp.js';
import { DeliverabilityAnswer } from './deliverability.js';

/*
 * The public checks' answers as GraphQL types, one file per check (common.ts: what every answer
 * carries). Each object is an ordinary Pothos object ref over the resolver's own return type, which
 * is the GraphQL shape: every field exposes the key of its own name. REST and MCP take their
 * snake_case keys from the field names at the door (operations/wire-shape.ts); a field's extensions
 * (schema/wire-field-extension.ts) say only where a check leaves a key out instead of answering null.
 * The import order is the order the types are declared in.
 */

/** Each check's answer type by name, as schema/check-declarations.ts names it. */
export const checkAnswerTypes = {
  SpfAnswer,
  DkimAnswer,
  DmarcAnswer,
  BimiAnswer,
  MtaStsAnswer,
  DnsAnswer,
  CnameAnswer,
  BlacklistAnswer,
  UriblAnswer,
  NameserversAnswer,
  DomainExpiryAnswer,
  ProviderDomainAnswer,
  VerifyEmailAnswer,
  SegmentEspAnswer,
  DeliverabilityAnswer,
} as const;

export type CheckAnswerName = keyof typeof checkAnswerTypes;

/** The answer of a check the request's deadline cut off, a member of every check's result union. */
export { UnfinishedCheck };

/** The enums a check argument takes, by name, as schema/check-declarations.ts names them. */
export const checkArgumentEnums = { DnsType } as const;

export type CheckArgumentEnumName = keyof typeof checkArgumentEnums;
