import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AnalyticsQuery } from '../gql/graphql';
import { PERIOD_CHOICES } from '../choices';
import { Page } from '../ui/page';
import { QueryState } from '../ui/status';
import { SelectField } from '../ui/field';
import { formatDate } from '../ui/format';
import { ReportsSection } from './analytics-reports';

const AnalyticsDocument = graphql(`
  query Analytics($period: AnalyticsPeriod) {
    analytics(period: $period) {
      period from to
      domains { domain watched sent delivered bounced replied bounceRate replyRate inboxRate spamRate }
    }
  }
`);

type Period = (typeof PERIOD_CHOICES)[number]['value'];
type Row = AnalyticsQuery['analytics']['domains'][number];
type MetricKey = 'sent' | 'delivered' | 'bounced' | 'replied' | 'inboxRate' | 'spamRate' | 'bounceRate' | 'replyRate';

/** The figures a person can chart; rates are percentages the service rounds to one decimal. */
const METRICS: readonly { key: MetricKey; label: string; rate: boolean }[] = [
  { key: 'sent', label: 'Sent', rate: false },
  { key: 'delivered', label: 'Delivered', rate: false },
  { key: 'bounced', label: 'Bounced', rate: false },
  { key: 'replied', label: 'Replied', rate: false },
  { key: 'inboxRate', label: 'Inbox placement', rate: true },
  { key: 'spamRate', label: 'Spam placement', rate: true },
  { key: 'bounceRate', label: 'Bounce rate', rate: true },
  { key: 'replyRate', label: 'Reply rate', rate: true },
];
type Metric = (typeof METRICS)[number];

const NOT_WATCHED = 'not watched';
const count = new Intl.NumberFormat('en-US');

/**
 * A watched domain's figure in words. A domain not yet watched has no figures at all (null, never
 * 0); a watched one that sent nothing has counts of 0 and no rates.
 */
function figure(row: Row, metric: Metric): string {
  if (!row.watched) return NOT_WATCHED;
  const value = row[metric.key];
  if (value === null || value === undefined) return metric.rate ? 'no mail to measure' : '—';
  return metric.rate ? `${value.toFixed(1)}%` : count.format(value);
}

/** Deliverability per domain over a period: a bar chart of one figure, then every figure in a table; then what receivers' DMARC reports say (analytics-reports.tsx). */
export function AnalyticsPage() {
  const [period, setPeriod] = useState<Period>('P7D');
  const [metricKey, setMetricKey] = useState<MetricKey>('sent');
  const [result] = useQuery({ query: AnalyticsDocument, variables: { period } });
  const metric = METRICS.find((m) => m.key === metricKey) ?? METRICS[0]!;
  const periodLabel = PERIOD_CHOICES.find((p) => p.value === period)?.label ?? period;
  return (
    <Page title="Analytics">
      <div className="toolbar">
        <SelectField
          label="Period"
          value={period}
          onChange={(e) => setPeriod(PERIOD_CHOICES.find((p) => p.value === e.target.value)?.value ?? 'P7D')}
          options={PERIOD_CHOICES.map((p) => ({ value: p.value, label: p.label }))}
        />
        <SelectField
          label="Chart shows"
          value={metricKey}
          onChange={(e) => setMetricKey(METRICS.find((m) => m.key === e.target.value)?.key ?? 'sent')}
          options={METRICS.map((m) => ({ value: m.key, label: m.label }))}
        />
      </div>
      <QueryState {...result}>
        {(data) => {
          const { domains } = data.analytics;
          const watched = domains.filter((d) => d.watched);
          const total = (key: 'sent' | 'replied' | 'bounced') => watched.reduce((sum, d) => sum + (d[key] ?? 0), 0);
          const range = `${formatDate(data.analytics.from)} to ${formatDate(data.analytics.to)}`;
          return (
            <>
              <p className="aside">
                {periodLabel}: {range} (UTC days).
              </p>
              <div className="stats">
                <div className="stat">
                  <strong>
                    {watched.length} of {domains.length}
                  </strong>
                  domains watched
                </div>
                <div className="stat">
                  <strong>{count.format(total('sent'))}</strong>sent
                </div>
                <div className="stat">
                  <strong>{count.format(total('replied'))}</strong>replied
                </div>
                <div className="stat">
                  <strong>{count.format(total('bounced'))}</strong>bounced
                </div>
              </div>
              {domains.length === 0 ? (
                <p>No domains yet; figures appear once an order's domains are watched.</p>
              ) : (
                <>
                  <section className="card chart-card" aria-labelledby="chart-title">
                    <h2 id="chart-title">{metric.label} per domain</h2>
                    <BarChart rows={domains} metric={metric} summary={`${metric.label} per domain, ${periodLabel.toLowerCase()} (${range})`} />
                  </section>
                  <FigureTable rows={domains} />
                </>
              )}
            </>
          );
        }}
      </QueryState>
      <ReportsSection period={period} periodLabel={periodLabel} />
    </Page>
  );
}

const ROW = 46;
/** The widest bar, in percent of the chart's width, leaving room for the figure after it. */
const BAR_SPAN = 82;

/**
 * Horizontal bars in plain SVG, one row per domain: the name above, the bar below with its figure.
 * Widths and positions are percentages, so the chart fits a phone without shrinking its text. The
 * svg is one image to a screen reader, named by a summary; the table below carries every figure.
 */
function BarChart(props: { rows: readonly Row[]; metric: Metric; summary: string }) {
  const values = props.rows.map((r) => (r.watched ? (r[props.metric.key] ?? null) : null));
  const max = props.metric.rate ? 100 : Math.max(1, ...values.map((v) => v ?? 0));
  const spoken = props.rows.slice(0, 12).map((r) => `${r.domain} ${figure(r, props.metric)}`);
  const more = props.rows.length > spoken.length ? `; ${props.rows.length - spoken.length} more in the table below` : '';
  const label = `${props.summary}: ${spoken.join('; ')}${more}.`;
  return (
    <svg className="bar-chart" role="img" aria-label={label} width="100%" height={props.rows.length * ROW + 4}>
      {props.rows.map((row, i) => {
        const y = i * ROW;
        const value = values[i];
        const width = value === null || value === undefined ? 0 : (value / max) * BAR_SPAN;
        return (
          <g key={row.domain}>
            <text x="0" y={y + 15} className="bar-label">
              {row.domain}
            </text>
            {row.watched ? (
              <>
                <rect x="0" y={y + 22} height="16" width={`${width}%`} rx="3" className="bar" />
                <text x={`${width + 1}%`} y={y + 35} className="bar-value">
                  {figure(row, props.metric)}
                </text>
              </>
            ) : (
              <>
                <rect x="0" y={y + 22} height="16" width={`${BAR_SPAN}%`} rx="3" className="bar-empty" />
                <text x="8" y={y + 35} className="bar-unwatched">
                  {NOT_WATCHED}
                </text>
              </>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** Every figure of every domain; a domain not watched yet says so once across its row. */
function FigureTable(props: { rows: readonly Row[] }) {
  return (
    // On a phone each domain becomes a stacked card (styles.css, .stack-on-phone); wider, the box scrolls and takes focus.
    <div className="table-wrap" role="region" aria-labelledby="figures-caption" tabIndex={0}>
      <table className="figures stack-on-phone">
        <caption id="figures-caption" className="figures-caption">
          Figures per domain
        </caption>
        <thead>
          <tr>
            <th scope="col">Domain</th>
            {METRICS.map((m) => (
              <th scope="col" key={m.key}>
                {m.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.domain}>
              <th scope="row">{row.domain}</th>
              {row.watched ? (
                METRICS.map((m) => (
                  <td key={m.key} className="num" data-label={m.label}>
                    {figure(row, m)}
                  </td>
                ))
              ) : (
                <td colSpan={METRICS.length} className="unwatched">
                  {NOT_WATCHED} yet: figures start with its first monitoring run
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
