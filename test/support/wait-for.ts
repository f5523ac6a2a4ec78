/**
 * Waits for a state instead of sleeping: calls `probe` every `everyMs` until it returns something
 * truthy (which is returned), and fails naming `what` after `timeoutMs`. The timeout is only a
 * guard against hanging: a test should never depend on it being reached or not.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
