import { DomainError, operation, sentence } from '../../resolvers/domain-error.js';

/**
 * The refusals a payment processor can give, as DomainErrors so the order flow throws them straight
 * through (SPEC 7: 402 declined, 409 cannot go ahead, 502 processor unreachable; in each, nothing
 * was charged).
 */

/** The card was refused when charged. SPEC 7: 402, nothing charged. */
export class CardDeclinedError extends DomainError {
  constructor(
    readonly declineCode: string | null = null,
    processorMessage: string | null = null,
  ) {
    super(
      'card_declined',
      sentence`The card on file was declined, so nothing was charged and no order was placed. Save another card with the setup link (${operation('create_card_setup_link')}), then place the order with a new Idempotency-Key.`,
      { decline_code: declineCode, ...(processorMessage ? { processor_message: processorMessage } : {}) },
    );
    this.name = 'CardDeclinedError';
  }
}

/** No card saved for the customer. SPEC 4.2 rule 2 and 3: 409 even when the first invoice is free. */
export class NoPaymentMethodError extends DomainError {
  constructor() {
    super(
      'no_payment_method',
      sentence`No card is on file, so nothing was charged. Open the link from ${operation('create_card_setup_link')} in a browser to save a card, then place the order again.`,
    );
    this.name = 'NoPaymentMethodError';
  }
}

/**
 * The processor could not be reached or did not answer in time. SPEC 7: 502, nothing charged.
 * `verified` says whether the processor was asked afterwards and confirmed that nothing was charged;
 * when false, a retry with the same Idempotency-Key finds any charge that did happen.
 */
export class ProcessorUnavailableError extends DomainError {
  constructor(
    readonly verified: boolean,
    readonly reason: string,
  ) {
    super(
      'payment_processor_unavailable',
      verified
        ? 'The payment processor could not be reached, and nothing was charged. Retry in a moment with the same Idempotency-Key.'
        : 'The payment processor could not be reached. Retry in a moment with the same Idempotency-Key: the retry finds any charge already made and never charges twice.',
      { retryable: true },
    );
    this.name = 'ProcessorUnavailableError';
  }
}

/** Another request with the same Idempotency-Key is being charged right now. */
export class PaymentInProgressError extends DomainError {
  constructor() {
    super(
      'payment_in_progress',
      'Another request with this Idempotency-Key is still being charged. Retry in a few seconds with the same key to get its result.',
      { retryable: true },
    );
    this.name = 'PaymentInProgressError';
  }
}

/** The same Idempotency-Key came back with a different order (other price, quantity or code). */
export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different order, so nothing was charged. Use a new Idempotency-Key for a new order.',
    );
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** The processor would not redeem the promotion code (SPEC 7: 402, "a code it would not redeem"). */
export class PromotionCodeRefusedError extends DomainError {
  constructor(readonly promotionCode: string) {
    super(
      'promotion_code_refused',
      `The payment processor would not redeem the promotion code "${promotionCode}", so nothing was charged. Place the order without it or with another code.`,
      { promotion_code: promotionCode },
    );
    this.name = 'PromotionCodeRefusedError';
  }
}
