/** The order request of SPEC 2.2 as GraphQL hands it over (camelCase; unknown fields never get here). */
export interface OrderMailboxInput {
  readonly firstName: string;
  readonly lastName: string;
  readonly localPart: string;
}

export interface OrderDomainInput {
  readonly domain: string;
  readonly forwardTo?: string | null;
  readonly mailboxes: readonly OrderMailboxInput[];
}

export interface OrderInput {
  readonly sku: string;
  readonly promotionCode?: string | null;
  readonly domains: readonly OrderDomainInput[];
}

/** SPEC 4.2 rule 6 and SPEC 8. */
export const ORDER_LIMITS = { domains: 500, mailboxes: 2000 } as const;
