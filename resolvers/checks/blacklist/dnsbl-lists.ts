/**
 * The DNS blocklists we ask, with what their return codes mean. Only lists that are maintained and
 * free for low-volume use without a key. Left out on purpose: SORBS (shut down in 2024), NiX Spam,
 * WPBL and CBL's old zone (merged into Spamhaus XBL), Abusix and Invaluement (need a subscription key).
 *
 * Query form (RFC 5782 section 2): IP lists take the address's octets reversed under the zone
 * (192.0.2.1 -> 1.2.0.192.zone); domain lists take the name under the zone. An A answer in 127/8
 * means listed; NXDOMAIN means not listed.
 */
export type DnsblKind = 'ip' | 'domain';

export interface DnsblList {
  readonly id: string;
  /** The name a person knows the list by. */
  readonly name: string;
  readonly zone: string;
  readonly kind: DnsblKind;
  /** major: listing blocks mail at many receivers; minor: a small or aggressive list (whole networks, backscatter). */
  readonly weight: 'major' | 'minor';
  readonly removalUrl: string;
  /** Meaning per full answer address. */
  readonly codes?: Readonly<Record<string, string>>;
  /** Meaning per bit of the last octet, for lists that add flags together (URIBL, SURBL). */
  readonly bits?: Readonly<Record<number, string>>;
  /** Answers that are the list refusing or failing, never a listing: address -> reason. */
  readonly refusals?: Readonly<Record<string, string>>;
  /** Bits of the last octet that mean the query was refused (SURBL's 1 = blocked). */
  readonly refusal_bits?: Readonly<Record<number, string>>;
  /** Spamhaus zones that move under `<key>.<zone>.dq.spamhaus.net` when SPAMHAUS_DQS_KEY is set. */
  readonly dqs_zone?: string;
  /**
   * Domain lists: the name the list always lists, when it is not RFC 5782's "test" (section 5:
   * IP lists list 127.0.0.2; domain lists list "test" and never "invalid").
   */
  readonly test_domain?: string;
}

// Spamhaus answers these from its public mirrors instead of a listing (Spamhaus "Return codes",
// error section); DQS adds 127.255.255.250 for an unknown key. Every 127.255.255.x is read as an
// error by the interpreter, these only give the precise reason.
const SPAMHAUS_REFUSALS = {
  '127.255.255.250': 'Spamhaus did not accept the DQS key (SPAMHAUS_DQS_KEY is not valid)',
  '127.255.255.252': 'Spamhaus answered "typing error in DNSBL name"',
  '127.255.255.254': 'Spamhaus refuses queries from public or open resolvers; point DNS_SERVERS at a resolver of your own or set SPAMHAUS_DQS_KEY',
  '127.255.255.255': 'Spamhaus refused the query: too many queries from this resolver; set SPAMHAUS_DQS_KEY',
} as const;

const SPAMHAUS_REMOVAL = 'https://check.spamhaus.org/';
const UCEPROTECT_REMOVAL = 'https://www.uceprotect.net/en/rblcheck.php';
const SPAMRATS_REMOVAL = 'https://www.spamrats.com/removal.php';
const SEM_REMOVAL = 'https://spameatingmonkey.com/lookup';

export const DNSBL_LISTS: readonly DnsblList[] = [
  // IP lists
  {
    id: 'spamhaus_zen',
    name: 'Spamhaus ZEN (SBL, CSS, XBL, PBL)',
    zone: 'zen.spamhaus.org',
    dqs_zone: 'zen',
    kind: 'ip',
    weight: 'major',
    removalUrl: SPAMHAUS_REMOVAL,
    codes: {
      '127.0.0.2': 'SBL: Spamhaus Block List, a known spam source or spam operation',
      '127.0.0.3': 'SBL CSS: snowshoe spam or a compromised sender detected by Spamhaus',
      '127.0.0.4': 'XBL: exploited host (botnet, malware or open proxy), CBL data',
      '127.0.0.5': 'XBL: exploited host',
      '127.0.0.6': 'XBL: exploited host',
      '127.0.0.7': 'XBL: exploited host',
      '127.0.0.9': 'SBL DROP: hijacked or leased to spammers (Do Not Route Or Peer)',
      '127.0.0.10': 'PBL (ISP maintained): end-user range that should not send mail directly to MX servers',
      '127.0.0.11': 'PBL (Spamhaus maintained): end-user range that should not send mail directly to MX servers',
    },
    refusals: SPAMHAUS_REFUSALS,
  },
  {
    id: 'barracuda',
    name: 'Barracuda Reputation Block List',
    zone: 'b.barracudacentral.org',
    kind: 'ip',
    weight: 'major',
    removalUrl: 'https://www.barracudacentral.org/rbl/removal-request',
    codes: { '127.0.0.2': 'Listed for poor sending reputation' },
  },
  {
    id: 'spamcop',
    name: 'SpamCop',
    zone: 'bl.spamcop.net',
    kind: 'ip',
    weight: 'major',
    removalUrl: 'https://www.spamcop.net/bl.shtml',
    codes: { '127.0.0.2': 'Reported as a spam source by SpamCop users and traps (expires on its own after 24 h without reports)' },
  },
  {
    id: 'uceprotect_1',
    name: 'UCEPROTECT Level 1',
    zone: 'dnsbl-1.uceprotect.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: UCEPROTECT_REMOVAL,
    codes: { '127.0.0.2': 'This address sent to UCEPROTECT spam traps' },
  },
  {
    id: 'uceprotect_2',
    name: 'UCEPROTECT Level 2',
    zone: 'dnsbl-2.uceprotect.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: UCEPROTECT_REMOVAL,
    codes: { '127.0.0.2': 'The surrounding network range holds several Level 1 listings' },
  },
  {
    id: 'uceprotect_3',
    name: 'UCEPROTECT Level 3',
    zone: 'dnsbl-3.uceprotect.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: UCEPROTECT_REMOVAL,
    codes: { '127.0.0.2': 'The whole network (ASN) holds many Level 1 listings' },
  },
  {
    id: 'backscatterer',
    name: 'Backscatterer.org',
    zone: 'ips.backscatterer.org',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://www.backscatterer.org/?target=test',
    codes: { '127.0.0.2': 'Sends backscatter (bounces or auto-replies to forged senders)' },
  },
  {
    id: 'psbl',
    name: 'Passive Spam Block List (PSBL)',
    zone: 'psbl.surriel.com',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://psbl.org/remove',
    codes: { '127.0.0.2': 'Sent mail to PSBL spam traps' },
  },
  {
    id: 'mailspike',
    name: 'Mailspike BL',
    zone: 'bl.mailspike.net',
    kind: 'ip',
    weight: 'major',
    removalUrl: 'https://mailspike.io/ip_verify',
    codes: {
      '127.0.0.2': 'Listed by Mailspike for spam',
      '127.0.0.10': 'Worst reputation (L5)',
      '127.0.0.11': 'Very bad reputation (L4)',
      '127.0.0.12': 'Bad reputation (L3)',
      '127.0.0.13': 'Suspicious reputation (L2)',
      '127.0.0.14': 'Slightly suspicious reputation (L1)',
    },
  },
  {
    id: 'spamrats_dyna',
    name: 'SpamRATS Dyna',
    zone: 'dyna.spamrats.com',
    kind: 'ip',
    weight: 'minor',
    removalUrl: SPAMRATS_REMOVAL,
    codes: { '127.0.0.36': 'Dynamic-looking address (generic reverse DNS) that sent spam' },
  },
  {
    id: 'spamrats_noptr',
    name: 'SpamRATS NoPtr',
    zone: 'noptr.spamrats.com',
    kind: 'ip',
    weight: 'minor',
    removalUrl: SPAMRATS_REMOVAL,
    codes: { '127.0.0.37': 'No reverse DNS (PTR) and sent spam' },
  },
  {
    id: 'spamrats_spam',
    name: 'SpamRATS Spam',
    zone: 'spam.spamrats.com',
    kind: 'ip',
    weight: 'minor',
    removalUrl: SPAMRATS_REMOVAL,
    codes: { '127.0.0.38': 'Sent spam to SpamRATS traps' },
  },
  {
    id: 'spamrats_auth',
    name: 'SpamRATS Auth',
    zone: 'auth.spamrats.com',
    kind: 'ip',
    weight: 'minor',
    removalUrl: SPAMRATS_REMOVAL,
    codes: { '127.0.0.43': 'Attempted SMTP authentication attacks' },
  },
  {
    id: 's5h',
    name: 'S5H.net',
    zone: 'all.s5h.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://www.usenix.org.uk/content/rbl.html',
    codes: { '127.0.0.2': 'Sent spam to s5h traps' },
  },
  {
    id: 'dronebl',
    name: 'DroneBL',
    zone: 'dnsbl.dronebl.org',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://dronebl.org/lookup',
    codes: {
      '127.0.0.3': 'IRC drone',
      '127.0.0.5': 'Bottler',
      '127.0.0.6': 'Unknown spambot or drone',
      '127.0.0.7': 'DDoS drone',
      '127.0.0.8': 'SOCKS proxy',
      '127.0.0.9': 'HTTP proxy',
      '127.0.0.10': 'ProxyChain',
      '127.0.0.11': 'Web page proxy',
      '127.0.0.12': 'Open DNS resolver',
      '127.0.0.13': 'Brute-force attacker',
      '127.0.0.14': 'Open WinGate proxy',
      '127.0.0.15': 'Compromised router or gateway',
      '127.0.0.16': 'Autorooting worm',
      '127.0.0.17': 'Botnet address (automatically detected)',
      '127.0.0.18': 'DNS or MX record on IRC network',
      '127.0.0.19': 'Abused VPN service',
      '127.0.0.255': 'Uncategorised',
    },
  },
  {
    id: 'blocklist_de',
    name: 'blocklist.de',
    zone: 'bl.blocklist.de',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://www.blocklist.de/en/delist.html',
    codes: { '127.0.0.2': 'Reported for attacks (SSH, mail, web brute force) in the last 48 hours' },
  },
  {
    id: 'sem_backscatter',
    name: 'SEM BACKSCATTER',
    zone: 'backscatter.spameatingmonkey.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: SEM_REMOVAL,
    codes: { '127.0.0.2': 'Sends backscatter' },
  },
  {
    id: 'sem_black',
    name: 'SEM BLACK',
    zone: 'bl.spameatingmonkey.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: SEM_REMOVAL,
    codes: { '127.0.0.2': 'Sent spam to Spam Eating Monkey traps' },
  },
  {
    id: '0spam',
    name: '0spam',
    zone: 'bl.0spam.org',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://0spam.org/',
    codes: { '127.0.0.2': 'Sent spam to 0spam traps' },
  },
  {
    id: 'nordspam',
    name: 'NordSpam',
    zone: 'bl.nordspam.com',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://www.nordspam.com/delist/',
    codes: { '127.0.0.2': 'Sent spam seen by NordSpam' },
  },
  {
    id: 'justspam',
    name: 'JustSpam',
    zone: 'dnsbl.justspam.org',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'http://www.justspam.org/check-an-ip',
    codes: { '127.0.0.2': 'Sent spam to JustSpam traps' },
  },
  {
    id: 'lashback',
    name: 'LashBack UBL',
    zone: 'ubl.unsubscore.com',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://blacklist.lashback.com/',
    codes: { '127.0.0.2': 'Sender abuses unsubscribe requests' },
  },
  {
    id: 'gbudb_truncate',
    name: 'GBUdb Truncate',
    zone: 'truncate.gbudb.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://www.gbudb.com/truncate/',
    codes: { '127.0.0.2': 'Almost all mail from this address is spam or malware (GBUdb)' },
  },
  {
    id: 'interserver',
    name: 'InterServer RBL',
    zone: 'rbl.interserver.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://rbl.interserver.net/',
    codes: { '127.0.0.2': 'Sent spam or attacks seen by InterServer' },
  },
  {
    id: 'suomispam',
    name: 'Suomispam',
    zone: 'bl.suomispam.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://suomispam.net/',
    codes: { '127.0.0.2': 'Sent spam seen by Suomispam' },
  },
  {
    id: 'spfbl',
    name: 'SPFBL',
    zone: 'dnsbl.spfbl.net',
    kind: 'ip',
    weight: 'minor',
    removalUrl: 'https://spfbl.net/en/delist/',
    codes: { '127.0.0.2': 'Bad reputation', '127.0.0.3': 'Suspicious reputation', '127.0.0.4': 'Sender refused to identify (no reverse DNS or failed HELO)' },
  },

  // Domain lists
  {
    // Spamhaus documents dbltest.com as the DBL's permanent test listing.
    id: 'spamhaus_dbl',
    name: 'Spamhaus DBL',
    zone: 'dbl.spamhaus.org',
    dqs_zone: 'dbl',
    test_domain: 'dbltest.com',
    kind: 'domain',
    weight: 'major',
    removalUrl: SPAMHAUS_REMOVAL,
    codes: {
      '127.0.1.2': 'Spam domain',
      '127.0.1.4': 'Phishing domain',
      '127.0.1.5': 'Malware domain',
      '127.0.1.6': 'Botnet command-and-control domain',
      '127.0.1.102': 'Abused legitimate domain used in spam',
      '127.0.1.103': 'Abused legitimate spammed redirector or URL shortener',
      '127.0.1.104': 'Abused legitimate domain used in phishing',
      '127.0.1.105': 'Abused legitimate domain used for malware',
      '127.0.1.106': 'Abused legitimate domain used for botnet command and control',
    },
    refusals: SPAMHAUS_REFUSALS,
  },
  {
    // multi.uribl.com adds its lists' bits together (URIBL "Implementation"); 127.0.0.1 is its
    // refusal ("query refused": a public resolver or over the free volume).
    // test.uribl.com is URIBL's permanent test listing (every list's bit set).
    id: 'uribl',
    name: 'URIBL',
    zone: 'multi.uribl.com',
    test_domain: 'test.uribl.com',
    kind: 'domain',
    weight: 'major',
    removalUrl: 'https://admin.uribl.com/',
    bits: {
      2: 'black: domain seen in spam, high confidence',
      4: 'grey: domain seen in bulk or unsolicited mail',
      8: 'red: domain seen in spam from recently active senders',
      16: 'gold: reserved, not used for listings',
    },
    refusals: { '127.0.0.1': "URIBL refused the query: the resolver is public or over URIBL's free volume; use a resolver of your own" },
  },
  {
    // multi.surbl.org adds its lists' bits together (SURBL "Lists"); bit 1 means the query was blocked.
    // test.surbl.org is SURBL's permanent test listing.
    id: 'surbl',
    name: 'SURBL',
    zone: 'multi.surbl.org',
    test_domain: 'test.surbl.org',
    kind: 'domain',
    weight: 'major',
    removalUrl: 'https://surbl.org/surbl-analysis',
    bits: { 8: 'PH: phishing', 16: 'MW: malware', 64: 'ABUSE: spam and other abuse', 128: 'CR: cracked (compromised) site' },
    refusal_bits: { 1: "SURBL blocked the query: the resolver is public or over SURBL's free volume; use a resolver of your own" },
  },
  {
    id: 'nordspam_dbl',
    name: 'NordSpam DBL',
    zone: 'dbl.nordspam.com',
    kind: 'domain',
    weight: 'minor',
    removalUrl: 'https://www.nordspam.com/delist/',
    codes: { '127.0.0.2': 'Domain seen in spam by NordSpam' },
  },
  {
    id: 'sem_uri',
    name: 'SEM URI',
    zone: 'uribl.spameatingmonkey.net',
    kind: 'domain',
    weight: 'minor',
    removalUrl: SEM_REMOVAL,
    codes: { '127.0.0.2': 'Domain seen in spam by Spam Eating Monkey' },
  },
  {
    id: 'suomispam_dbl',
    name: 'Suomispam DBL',
    zone: 'dbl.suomispam.net',
    kind: 'domain',
    weight: 'minor',
    removalUrl: 'https://suomispam.net/',
    codes: { '127.0.0.2': 'Domain seen in spam by Suomispam' },
  },
];

export const IP_LISTS: readonly DnsblList[] = DNSBL_LISTS.filter((l) => l.kind === 'ip');
export const DOMAIN_LISTS: readonly DnsblList[] = DNSBL_LISTS.filter((l) => l.kind === 'domain');
