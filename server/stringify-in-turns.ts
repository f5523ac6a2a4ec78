import { setImmediate } from 'node:timers/promises';

/** Text written between two turns of the event loop, about: a 1.7 MB answer is written in some 27 turns. */
const TEXT_PER_TURN = 64 * 1024;
/** Arrays this long have their items written one by one (each item whole); shorter ones are walked into. */
const LONG_ARRAY = 32;

/**
 * JSON.stringify(value), the same text, written with a turn of the event loop every TEXT_PER_TURN
 * characters or so: a 1.7 MB GraphQL answer (a keyless verifyEmail of 5,000 addresses) would
 * otherwise hold every other request while it is made in one go. Objects and short arrays are
 * walked; the items of a long array are each stringified whole, so a pause falls between items.
 * A value with toJSON is stringified whole too (graphql results hold none: scalars are serialized
 * by then). Like JSON.stringify, a key whose value is undefined, a function or a symbol is left out,
 * and such an item of an array is `null`.
 */
export async function stringifyInTurns(value: unknown): Promise<string> {
  const parts: string[] = [];
  let sinceTurn = 0;
  const steps = write(value);
  for (;;) {
    const step = steps.next();
    if (step.done) break;
    const piece = step.value;
    parts.push(piece);
    sinceTurn += piece.length;
    if (sinceTurn >= TEXT_PER_TURN) {
      sinceTurn = 0;
      await setImmediate();
    }
  }
  return parts.join('');
}

/** The pieces of one value's JSON text, in order; undefined values are written by the caller's rules. */
function* write(value: unknown): Generator<string, void, undefined> {
  if (value === null || typeof value !== 'object' || typeof Reflect.get(value, 'toJSON') === 'function') {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      const item: unknown = value[i];
      if (value.length >= LONG_ARRAY) yield JSON.stringify(item) ?? 'null';
      else yield* write(item);
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const item: unknown = Reflect.get(value, key);
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* write(item);
  }
  yield '}';
}

/** A list this long (or longer) makes an answer worth writing in turns: 500 verifyEmail results are some 175 KB of text. */
const LARGE_LIST = 500;

/**
 * Whether `value` holds a list of LARGE_LIST items or more within its first levels (a GraphQL
 * result's `data`, the field, its list): the answers worth writing in turns. Looks into objects
 * and short lists only, so it costs next to nothing for the small answers, which JSON.stringify
 * writes at once.
 */
export function holdsLargeList(value: unknown, depth = 5): boolean {
  if (value === null || typeof value !== 'object' || depth === 0) return false;
  if (Array.isArray(value)) return value.length >= LARGE_LIST || (value.length < LONG_ARRAY && value.some((item) => holdsLargeList(item, depth - 1)));
  return Object.keys(value).some((key) => holdsLargeList(Reflect.get(value, key), depth - 1));
}
