/** Operator settings for the blocklist checks, read once at start-up. */
export interface BlacklistConfig {
  /**
   * A Spamhaus Data Query Service key. When set, Spamhaus zones are asked as
   * `<key>.zen.dq.spamhaus.net` and `<key>.dbl.dq.spamhaus.net`, which answer whatever resolver the
   * operator uses (the public mirrors refuse shared resolvers with 127.255.255.254).
   */
  readonly spamhausDqsKey: string | null;
}

/** SPAMHAUS_DQS_KEY (optional). A key that is not one DNS label is refused at start-up. */
export function blacklistConfigFromEnv(env: NodeJS.ProcessEnv = process.env): BlacklistConfig {
  const key = (env.SPAMHAUS_DQS_KEY ?? '').trim();
  if (key === '') return { spamhausDqsKey: null };
  if (!/^[a-z0-9]{1,63}$/i.test(key)) throw new Error('SPAMHAUS_DQS_KEY must be the letters and digits of a Spamhaus DQS key.');
  return { spamhausDqsKey: key.toLowerCase() };
}
