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

/** Domains pasted one per line (or separated by commas or spaces), blanks and repeats dropped. */
export function parseDomainList(text: string): string[] {
  const seen = new Set<string>();
  for (const word of text.split(/[\s,;]+/)) {
    const domain = word.trim().toLowerCase();
    if (domain) seen.add(domain);
  }
  return [...seen];
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
