import { connect } from 'node:net';

export type TcpExchangeResult = { readonly ok: true; readonly answer: Buffer } | { readonly ok: false; readonly reason: string };

/**
 * One DNS message over TCP (RFC 1035 section 4.2.2: a two-byte length, then the message) and its
 * answer. TCP rather than UDP: an update carrying a 2048-bit DKIM key does not fit a plain UDP
 * message, and TCP needs no retry logic. The whole exchange is bounded by `timeoutMs`.
 */
export function exchangeOverTcp(address: string, port: number, message: Buffer, timeoutMs: number): Promise<TcpExchangeResult> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (result: TcpExchangeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: `did not answer within ${Math.round(timeoutMs / 100) / 10} s` }), timeoutMs);
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length);
      socket.write(Buffer.concat([length, message]));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0))
        finish({ ok: true, answer: received.subarray(2, 2 + received.readUInt16BE(0)) });
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, reason: error.code === 'ECONNREFUSED' ? 'refused the connection' : `could not be reached (${error.code ?? 'network error'})` }),
    );
    socket.on('close', () => finish({ ok: false, reason: 'closed the connection without answering' }));
  });
}
