/** What a registry told us about a registered domain, whichever protocol it came over. */
export type RegistrationLookup =
  | { readonly kind: 'found'; readonly registrar: string | null; readonly created: string | null; readonly expires: string | null; readonly server: string }
  | { readonly kind: 'not_found'; readonly server: string }
  | {
      readonly kind: 'failed';
      readonly reason: string;
      readonly server: string | null;
      /** The server we learned of resolves to a non-public address, so it was not asked (SSRF rule). */
      readonly refused?: boolean;
    };
