/**
 * The card numbers the sandbox accepts, as in Stripe's test mode
 * (https://docs.stripe.com/testing#cards). Only these: a sandbox must never take a real card number,
 * even a well-formed one, because someone will type theirs.
 */
export type SandboxCardOutcome = 'charge' | 'decline';

export function isSandboxCardOutcome(value: string): value is SandboxCardOutcome {
  return value === 'charge' || value === 'decline';
}

export const SANDBOX_TEST_CARDS: Readonly<Record<string, { readonly brand: string; readonly outcome: SandboxCardOutcome; readonly label: string }>> = {
  '4242424242424242': { brand: 'visa', outcome: 'charge', label: 'charges successfully' },
  '4000000000000341': { brand: 'visa', outcome: 'decline', label: 'is saved, then declined when charged' },
};

export type CardNumberCheck =
  | { readonly ok: true; readonly digits: string; readonly brand: string; readonly outcome: SandboxCardOutcome }
  | {
      readonly ok: false;
      readonly code: 'card_number_missing' | 'card_number_malformed' | 'card_number_invalid' | 'card_number_not_test';
      readonly message: string;
    };

/** Spaces and dashes are how people type card numbers; anything else is a typing error. */
export function checkSandboxCardNumber(input: string | undefined | null): CardNumberCheck {
  const digits = (input ?? '').replace(/[\s-]/g, '');
  if (digits === '') return { ok: false, code: 'card_number_missing', message: 'Enter a card number.' };
  if (!/^\d{12,19}$/.test(digits)) {
    return { ok: false, code: 'card_number_malformed', message: 'A card number is 12 to 19 digits; check it and try again.' };
  }
  if (!luhnValid(digits)) {
    return { ok: false, code: 'card_number_invalid', message: 'This card number is not valid (its check digit is wrong); check it and try again.' };
  }
  const known = SANDBOX_TEST_CARDS[digits];
  if (!known) {
    return {
      ok: false,
      code: 'card_number_not_test',
      message: 'This is a sandbox: it only takes the test numbers 4242 4242 4242 4242 and 4000 0000 0000 0341, never a real card.',
    };
  }
  return { ok: true, digits, brand: known.brand, outcome: known.outcome };
}

/** The Luhn (mod 10) check digit of ISO/IEC 7812-1 card numbers. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
