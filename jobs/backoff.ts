/** graphile-worker's retry wait, so both runners retry alike: e^min(attempts, 10) seconds (2.7 s, 7.4 s, ... 6 h). */
export function backoffSeconds(attempts: number): number {
  return Math.exp(Math.min(attempts, 10));
}
