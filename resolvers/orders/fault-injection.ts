import type { FaultSettings } from '../../config/settings.js';

/**
 * A fault hook for the crash tests of issue 7 and nothing else: with SERVICE_FAULT=exit_after_charge
 * the process kills itself (SIGKILL, like a power cut) right after the processor charged and before
 * the order is committed. Unset, it does nothing; no operator sets it.
 */
export function dieHereIfFaultInjected(point: 'exit_after_charge', faults: FaultSettings | undefined): void {
  if (faults?.serviceFault === point) process.kill(process.pid, 'SIGKILL');
}
