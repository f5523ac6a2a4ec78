import type { OrderInput } from '../../gql/graphql';

/** What the person is typing: every field a string, rows keyed so React keeps focus while rows come and go. */
export interface MailboxDraft {
  readonly key: number;
  readonly firstName: string;
  readonly lastName: string;
  readonly localPart: string;
}

export interface DomainDraft {
  readonly key: number;
  readonly domain: string;
  readonly forwardTo: string;
  readonly mailboxes: readonly MailboxDraft[];
}

export interface OrderDraft {
  readonly sku: string;
  readonly promotionCode: string;
  readonly domains: readonly DomainDraft[];
}

/** The service's limits per order (SPEC 4.2 rule 6; resolvers/orders/order-input.ts). */
export const ORDER_LIMITS = { domains: 500, mailboxes: 2000 } as const;

let nextKey = 1;
const key = () => nextKey++;

export const blankMailbox = (): MailboxDraft => ({ key: key(), firstName: '', lastName: '', localPart: '' });
export const blankDomain = (mailboxes: readonly MailboxDraft[] = [blankMailbox()]): DomainDraft => ({
  key: key(),
  domain: '',
  forwardTo: '',
  mailboxes: mailboxes.map((m) => ({ ...m, key: key() })),
});
export const blankDraft = (sku = ''): OrderDraft => ({ sku, promotionCode: '', domains: [blankDomain()] });

export const mailboxCount = (draft: OrderDraft): number => draft.domains.reduce((n, d) => n + d.mailboxes.length, 0);

const isBlankMailbox = (m: MailboxDraft) => !m.firstName.trim() && !m.lastName.trim() && !m.localPart.trim();

/** The order as sent, with the row each sent domain came from (to name rows in the problems). */
export interface SentOrder {
  readonly input: OrderInput;
  /** rows[i] is the draft row (0-based) of input.domains[i]. */
  readonly rows: readonly number[];
}

/**
 * The draft as the service's OrderInput. Rows still blank (no domain typed, a mailbox with nothing in
 * it) are left out rather than refused while the person is still typing; the review step lists
 * exactly what is sent, and preview and place send the very same input.
 */
export function toOrderInput(draft: OrderDraft): SentOrder {
  const rows: number[] = [];
  const domains = draft.domains.flatMap((d, row) => {
    if (!d.domain.trim()) return [];
    rows.push(row);
    const forwardTo = d.forwardTo.trim();
    return [
      {
        domain: d.domain.trim(),
        ...(forwardTo ? { forwardTo } : {}),
        mailboxes: d.mailboxes
          .filter((m) => !isBlankMailbox(m))
          .map((m) => ({ firstName: m.firstName.trim(), lastName: m.lastName.trim(), localPart: m.localPart.trim() })),
      },
    ];
  });
  const code = draft.promotionCode.trim();
  return { input: { sku: draft.sku, domains, ...(code ? { promotionCode: code } : {}) }, rows };
}

/** A pasted line that is not a domain name, and why, in words. */
export interface NotADomain {
  /** 1-based, as a person counts lines. */
  readonly line: number;
  readonly text: string;
  readonly why: string;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name such as example.com, as the service takes it (IDN names in their ASCII form). */
export function isDomainName(text: string): boolean {
  const name = text.trim().replace(/\.$/, '').toLowerCase();
  if (name === '' || /[\s/@:,;]/.test(name)) return false;
  let ascii: string;
  try {
    ascii = new URL(`http://${name}`).hostname;
  } catch {
    return false;
  }
  const labels = ascii.split('.');
  return ascii.length <= 253 && labels.length >= 2 && labels.every((l) => LABEL.test(l)) && !/^[0-9]+$/.test(labels.at(-1) ?? '');
}

/** Why a piece of text is not a domain name, said as a person would fix it. */
function whyNotADomain(text: string): string {
  if (text.includes('@')) return `an e-mail address, not a domain: use the part after the @ (${text.slice(text.lastIndexOf('@') + 1) || 'the domain'})`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.includes('/')) return 'a web address: keep only the host name, such as example.com';
  if (/[,;]/.test(text)) return 'not a list of domain names: put one domain on each line';
  if (!text.includes('.')) return 'not a domain name: a domain has a dot, such as example.com';
  return 'not a domain name: use letters, digits and hyphens separated by dots, such as example.com';
}

/**
 * Domains pasted one per line, blanks and repeats dropped. A line with commas, semicolons or spaces is
 * taken as a list only when every piece is a domain name (a pasted "a.com, b.com"); otherwise the whole
 * line is reported, so a line of names ("Wes, Ann") never turns into domains.
 */
export function readDomainLines(text: string): { readonly domains: string[]; readonly notDomains: NotADomain[] } {
  const seen = new Set<string>();
  const notDomains: NotADomain[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const pieces = line.split(/[\s,;]+/).filter(Boolean);
    if (pieces.length > 0 && pieces.every(isDomainName)) {
      for (const piece of pieces) seen.add(piece.toLowerCase().replace(/\.$/, ''));
    } else {
      notDomains.push({ line: i + 1, text: line, why: whyNotADomain(line) });
    }
  });
  return { domains: [...seen], notDomains };
}

/** A copy of these mailboxes with fresh keys (for another domain row). */
export const copyMailboxes = (mailboxes: readonly MailboxDraft[]): MailboxDraft[] => mailboxes.map((m) => ({ ...m, key: key() }));

const STORAGE_KEY = 'portal:new-order-draft';

/**
 * The draft survives a trip to another page (adding a card on Billing, publishing a record on
 * Domain verification) for the life of the tab, so a long order is never typed twice.
 */
export function loadDraft(): OrderDraft | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as OrderDraft | null;
    if (!stored || !Array.isArray(stored.domains) || !(stored.domains as readonly DomainDraft[]).some((d) => d.domain.trim())) return null;
    // Row keys go on from the highest stored one, so new rows never share a key with old ones.
    for (const d of stored.domains as readonly DomainDraft[]) nextKey = Math.max(nextKey, d.key + 1, ...d.mailboxes.map((m) => m.key + 1));
    return stored;
  } catch {
    return null;
  }
}

export function saveDraft(draft: OrderDraft | null): void {
  try {
    if (draft) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(draft));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode, quota): the draft simply lives as long as the page.
  }
}
