/**
 * The referral terms (docs/ordering.md, "Referrals"): the referrer earns this share of what the
 * referred account pays on its first paid invoice (money actually paid, so a first invoice a promotion
 * made free does not count; the next paid one does), once per referred account, credited as pending
 * and paid out by us to the referrer's payout destination.
 */
export const REFERRAL_SHARE_PERCENT = 20;

/** The terms in a sentence, for people (the portal's referrals page and the API's answer). */
export const REFERRAL_TERMS =
  `When an account you refer signs up through your link (or enters your code) and pays its first invoice, ` +
  `you earn ${REFERRAL_SHARE_PERCENT}% of what that invoice charged, once per referred account. ` +
  'It shows here as pending at once and is paid out to your payout destination.';
