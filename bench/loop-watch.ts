import { readFileSync } from 'node:fs';

/** The main thread's CPU time so far in ms (utime + stime of its task), or null where /proc is not Linux's. */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'latin1');
    // Fields after the command name (in parentheses, which may hold spaces): utime is the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** Watches the event loop turn by turn until stopped: the longest gap, wall and main-thread CPU. */
export function watchLoop(): () => { wall: number; cpu: number | null; cpuTotal: number | null } {
  let turning = true;
  let lastTurn = performance.now();
  const firstCpu = mainThreadCpuMs();
  let lastCpu = firstCpu;
  let wall = 0;
  let cpu: number | null = lastCpu === null ? null : 0;
  const turn = (): void => {
    const now = performance.now();
    const cpuNow = mainThreadCpuMs();
    wall = Math.max(wall, now - lastTurn);
    if (cpu !== null && cpuNow !== null && lastCpu !== null) cpu = Math.max(cpu, cpuNow - lastCpu);
    lastTurn = now;
    lastCpu = cpuNow;
    if (turning) setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    turning = false;
    const cpuNow = mainThreadCpuMs();
    return { wall, cpu, cpuTotal: cpuNow === null || firstCpu === null ? null : cpuNow - firstCpu };
  };
}
