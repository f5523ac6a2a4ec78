import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { graphql } from '../gql';
import type { DashboardQuery } from '../gql/graphql';
import { Page } from '../ui/page';
import { QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { Field, SelectField } from '../ui/field';
import { formatDate } from '../ui/format';
import { setupPath } from './domain-setup';
import { mailboxesPath } from './mailboxes';
import { ShowMore, usePagedQuery } from '../ui/paged-query';

export const DashboardDocument = graphql(`
  query Dashboard($first: Int!, $after: String) {
    dashboard {
      domainCount mailboxCount orderCount
      domainsConnection(first: $first, after: $after) {
        orders {
          orderId reference product status createdAt
          domains { domain buildState buildReason mailboxCount workspaceName buildProblems { code message record { type name value } } }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

type Order = DashboardQuery['dashboard']['domainsConnection']['orders'][number];

/** The pages' orders in one list: an order whose domains span two pages becomes one group again. */
export function mergeOrders(pages: readonly DashboardQuery[]): Order[] {
  const orders: Order[] = [];
  for (const order of pages.flatMap((p) => p.dashboard.domainsConnection.orders)) {
    const last = orders.at(-1);
    if (last?.orderId === order.orderId) orders[orders.length - 1] = { ...last, domains: [...last.domains, ...order.domains] };
    else orders.push(order);
  }
  return orders;
}

const STATES = ['queued', 'building', 'waiting_for_dns', 'live', 'needs_attention', 'suspended', 'cancelled'] as const;

/**
 * The account at a glance: counts, then its domains grouped by order, 100 at a time ("Show more"
 * reads the next page), searchable by name among those shown.
 */
export function DashboardPage() {
  const paged = usePagedQuery({ query: DashboardDocument, variables: { first: 100 }, pageInfo: (d) => d.dashboard.domainsConnection.pageInfo });
  const result = paged.first;
  const [search, setSearch] = useState('');
  const [state, setState] = useState('');
  return (
    <Page
      title="Dashboard"
      actions={
        <Link href="/new-order" className="button-link">
          New order
        </Link>
      }
    >
      <QueryState {...result}>
        {(data) => (
          <>
            <div className="stats">
              <div className="stat">
                <strong>{data.dashboard.domainCount}</strong>domains
              </div>
              <div className="stat">
                <strong>{data.dashboard.mailboxCount}</strong>mailboxes
              </div>
              <div className="stat">
                <strong>{data.dashboard.orderCount}</strong>orders
              </div>
            </div>
            <div className="toolbar" role="search">
              <Field label="Search domains" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="example.com" />
              <SelectField
                label="Build state"
                value={state}
                onChange={(e) => setState(e.target.value)}
                options={[{ value: '', label: 'Any state' }, ...STATES.map((s) => ({ value: s, label: s.replaceAll('_', ' ') }))]}
              />
            </div>
            <OrderGroups orders={mergeOrders(paged.pages)} search={search} state={state} />
            <ShowMore
              label="Show more domains"
              hasNextPage={paged.hasNextPage}
              loading={paged.loading}
              error={paged.error}
              onClick={() => void paged.loadMore()}
            />
          </>
        )}
      </QueryState>
    </Page>
  );
}

function OrderGroups(props: { orders: readonly Order[]; search: string; state: string }) {
  const needle = props.search.trim().toLowerCase();
  const groups = useMemo(
    () =>
      props.orders
        .map((order) => ({
          order,
          domains: order.domains.filter((d) => (!needle || d.domain.includes(needle)) && (!props.state || d.buildState === props.state)),
        }))
        .filter((group) => group.domains.length > 0),
    [props.orders, needle, props.state],
  );
  if (props.orders.length === 0)
    return (
      <p>
        No orders yet. <Link href="/new-order">Place your first order</Link>.
      </p>
    );
  if (groups.length === 0) return <p role="status">No domain matches; clear the search or pick another state.</p>;
  return (
    <>
      {groups.map(({ order, domains }) => (
        <section key={order.orderId} className="card" aria-labelledby={`order-${order.orderId}`}>
          <h2 id={`order-${order.orderId}`}>
            Order {order.reference} · {order.product} <Chip value={order.status} />
          </h2>
          <p className="aside">
            Placed {formatDate(order.createdAt)} · {order.domains.length} {order.domains.length === 1 ? 'domain' : 'domains'}
          </p>
          <div className="table-wrap">
            <table className="stack-on-phone">
              <thead>
                <tr>
                  <th scope="col">Domain</th>
                  <th scope="col">State</th>
                  <th scope="col">Mailboxes</th>
                  <th scope="col">Folder</th>
                </tr>
              </thead>
              <tbody>
                {domains.map((d) => (
                  <tr key={d.domain}>
                    <td data-label="Domain">
                      <Link href={setupPath(d.domain)} title="Setup and records">
                        {d.domain}
                      </Link>
                    </td>
                    <td data-label="State">
                      <Chip value={d.buildState} label={d.buildState === 'waiting_for_dns' ? 'waiting for DNS' : undefined} />
                      {/* The reason repeats the problems' sentences: shown only when there is no problem list to say it. */}
                      {d.buildReason && d.buildProblems.length === 0 ? <div className="hint">{d.buildReason}</div> : null}
                      {d.buildProblems.length > 0 ? (
                        <ul className="problems" aria-label={`Setup problems of ${d.domain}`}>
                          {d.buildProblems.map((p) => (
                            <li key={p.code}>
                              {p.message}
                              {p.record ? (
                                <dl className="problem-record">
                                  <div>
                                    <dt>Type</dt>
                                    <dd>
                                      <code>{p.record.type}</code>
                                    </dd>
                                  </div>
                                  <div>
                                    <dt>Name</dt>
                                    <dd>
                                      <code>{p.record.name}</code>
                                    </dd>
                                  </div>
                                  <div>
                                    <dt>Value</dt>
                                    <dd>
                                      <code>{p.record.value}</code>
                                    </dd>
                                  </div>
                                </dl>
                              ) : null}
                            </li>
                          ))}
                        </ul>
                      ) : null}
                      {d.buildProblems.length > 0 ? (
                        <Link href={setupPath(d.domain)} className="hint">
                          Publish {d.buildProblems.length === 1 ? 'it' : 'them'} from the setup of {d.domain}
                        </Link>
                      ) : null}
                    </td>
                    <td data-label="Mailboxes">
                      <Link href={mailboxesPath(d.domain)} aria-label={`${d.mailboxCount} mailboxes of ${d.domain}`}>
                        {d.mailboxCount}
                      </Link>
                    </td>
                    <td data-label="Folder">{d.workspaceName ?? <span className="hint">Unfiled</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
}
