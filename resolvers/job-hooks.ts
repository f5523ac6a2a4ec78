/** What the API calls after a change that has work behind it; never throws into the request. */
export interface JobHooks {
  /** After a placement is recorded: the order.placed event and the domains' builds. */
  orderPlaced(orderId: number): Promise<void>;
  /** After an order's subscription became cancelled (a processor webhook): its mailboxes are suspended at the provider. */
  orderCancelled(orderId: number): Promise<void>;
  /** After the customer reinstated a cancelled order: its suspended mailboxes are taken up again at the provider. */
  orderReinstated(orderId: number): Promise<void>;
  /** After the deliverability switch is set: on queues the first run now (off needs nothing: runs check the switch). */
  monitoringSwitched(orderId: number, on: boolean): Promise<void>;
  /** A delivery made or reopened by a person (a test event, a resend): its next attempt is queued now. */
  deliveryQueued(deliveryId: number): Promise<void>;
  /** After the API recorded an event (an invoice paid, a setup checked now moved a domain): its e-mails and webhook deliveries. */
  eventRecorded(eventId: string): Promise<void>;
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: endpoints on private addresses (and plain http) are accepted (tests only). */
  readonly allowPrivateEndpoints: boolean;
}
