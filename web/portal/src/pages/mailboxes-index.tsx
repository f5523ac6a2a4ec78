import { Link } from 'wouter';
import { Page } from '../ui/page';
import { QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { ShowMore, usePagedQuery } from '../ui/paged-query';
import { DashboardDocument, mergeOrders } from './dashboard';
import { ExportButtons, mailboxesOrderId, OrdersDocument } from './orders';
import { mailboxesPath } from './mailboxes';
import { useHashTarget } from '../ui/hash-target';

/**
 * Every mailbox of the account, by order: each domain with its mailbox count leads to that domain's
 * mailboxes (their status, "Show credentials", "Reset password"); beside them, the order's export of
 * every mailbox with its password as CSV for a sequencer.
 */
export function MailboxesIndexPage() {
  const paged = usePagedQuery({ query: DashboardDocument, variables: { first: 100 }, pageInfo: (d) => d.dashboard.domainsConnection.pageInfo });
  const ordersPaged = usePagedQuery({ query: OrdersDocument, variables: { first: 50 }, pageInfo: (d) => d.ordersConnection.pageInfo });
  const orders = mergeOrders(paged.pages);
  useHashTarget(paged.first.data !== undefined && ordersPaged.first.data !== undefined);
  const subscriptions = new Map(ordersPaged.pages.flatMap((p) => p.ordersConnection.nodes).map((o) => [o.orderId, o]));
  return (
    <Page title="Mailboxes">
      <QueryState {...paged.first}>
        {() =>
          orders.length === 0 ? (
            <p>
              No mailboxes yet: they come with an order. <Link href="/new-order">Place your first order</Link>.
            </p>
          ) : (
            <>
              {orders.map((order) => {
                const headingId = mailboxesOrderId(order.reference);
                const subscription = subscriptions.get(order.orderId);
                return (
                  <section key={order.orderId} className="card card-titled" aria-labelledby={headingId}>
                    <h2 id={headingId} tabIndex={-1}>
                      Order {order.reference} · {order.product}
                    </h2>
                    <div className="table-wrap">
                      <table className="stack-on-phone">
                        <caption className="sr-only">The domains of order {order.reference} and their mailboxes</caption>
                        <thead>
                          <tr>
                            <th scope="col">Domain</th>
                            <th scope="col">Status</th>
                            <th scope="col">Mailboxes</th>
                          </tr>
                        </thead>
                        <tbody>
                          {order.domains.map((d) => (
                            <tr key={d.domain}>
                              <td data-label="Domain">{d.domain}</td>
                              <td data-label="Status">
                                <Chip value={d.buildState} />
                              </td>
                              <td data-label="Mailboxes">
                                <Link href={mailboxesPath(d.domain)}>
                                  {d.mailboxCount} {d.mailboxCount === 1 ? 'mailbox' : 'mailboxes'}
                                  <span className="sr-only"> of {d.domain}</span>
                                </Link>
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                    {subscription ? (
                      <ExportButtons
                        subscriptionId={subscription.subscriptionId}
                        reference={subscription.reference}
                        sequencer={subscription.sequencer ?? 'none'}
                      />
                    ) : null}
                  </section>
                );
              })}
              <ShowMore
                label="Show more domains"
                hasNextPage={paged.hasNextPage}
                loading={paged.loading}
                error={paged.error}
                onClick={() => void paged.loadMore()}
              />
            </>
          )
        }
      </QueryState>
    </Page>
  );
}
