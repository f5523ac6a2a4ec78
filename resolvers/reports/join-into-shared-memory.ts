/**
 * The chunks of one message joined into one Buffer over a SharedArrayBuffer (one copy, as
 * Buffer.concat makes). The report pool's tasks then get the message without another copy: a
 * Buffer over an ordinary ArrayBuffer is cloned into the worker thread by the main thread, once
 * for the screen and once for the read, up to REPORTS_SMTP_MAX_BYTES each time (3 ms a copy for
 * 10 MiB on a quiet machine, 12 ms seen on a loaded one: docs/performance.md); memory shared is
 * only lent. Nothing writes the bytes once joined: the workers and the postmaster forward read them.
 */
export function joinIntoSharedMemory(chunks: readonly Uint8Array[]): Buffer {
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const joined = Buffer.from(new SharedArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}
