/**
 * The purposes (AAD, resolvers/secrets/encrypt-secret.ts) the ACME keys are sealed for: a key sealed
 * for one name or directory does not open as another's.
 */
export function certificateKeySealPurpose(domain: string): string {
  return `forwarding-certificate:${domain}`;
}

export function acmeAccountSealPurpose(directoryUrl: string): string {
  return `acme-account:${directoryUrl}`;
}
