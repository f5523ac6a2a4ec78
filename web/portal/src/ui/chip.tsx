/** A domain's build state as a coloured chip with its words (colour is never the only signal). */
const TONES: Record<string, string> = {
  live: 'ok',
  queued: 'info',
  building: 'info',
  needs_attention: 'warn',
  suspended: 'bad',
  cancelled: 'muted',
  active: 'ok',
  past_due: 'bad',
  paid: 'ok',
  open: 'info',
  answered: 'ok',
  closed: 'muted',
  done: 'ok',
  declined: 'warn',
  pending: 'info',
  verified: 'ok',
  not_verified: 'warn',
  waiting_for_dns: 'info',
  missing: 'warn',
  wrong: 'bad',
  conflict: 'bad',
  unknown: 'muted',
};

export function Chip(props: { value: string; label?: string }) {
  const tone = TONES[props.value] ?? 'muted';
  return <span className={`chip chip-${tone}`}>{props.label ?? props.value.replaceAll('_', ' ')}</span>;
}
