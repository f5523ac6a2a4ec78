import { readFileSync } from 'node:fs';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** A fixture under test/fixtures/reports/ as text. */
export function reportFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/reports/${name}`, import.meta.url), 'utf8');
}

/** The fixture with its period moved to start at `begin` (a day long), and optionally its report id and domain changed. */
export function dmarcFixture(name: string, change: { begin?: Date; reportId?: string; domain?: string } = {}): string {
  let xml = reportFixture(name);
  if (change.begin) {
    const start = Math.floor(change.begin.getTime() / 1000);
    xml = xml.replace(/<begin>\d+<\/begin>/, `<begin>${start}</begin>`).replace(/<end>\d+<\/end>/, `<end>${start + 86_399}</end>`);
  }
  if (change.reportId) xml = xml.replace(/<report_id>[^<]*<\/report_id>/, `<report_id>${change.reportId}</report_id>`);
  if (change.domain) xml = xml.replaceAll(/northwind-mail\.test/gi, change.domain);
  return xml;
}

export function gzip(data: string | Buffer): Buffer {
  return gzipSync(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
}

/**
 * A zip built by hand (deflate, or stored), so tests can also make one that lies: `declaredSize`
 * writes another uncompressed size in the headers than the data has.
 */
export function zip(entries: readonly { name: string; data: Buffer | string; store?: boolean; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const packed = entry.store ? raw : deflateRawSync(raw);
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? raw.length;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(entry.store ? 0 : 8, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(entry.store ? 0 : 8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A report message as a receiver sends it: a short text part and the attachments, base64. */
export function reportMessage(options: {
  from?: string;
  to?: string;
  subject?: string;
  attachments: readonly { filename: string; contentType: string; data: Buffer }[];
}): Buffer {
  const boundary = '----=_Part_0_123456.789';
  const lines = [
    `From: ${options.from ?? 'noreply-dmarc-support@google.com'}`,
    `To: ${options.to ?? 'dmarc@reports.localhost'}`,
    `Subject: ${options.subject ?? 'Report domain: northwind-mail.test Submitter: google.com Report-ID: <1>'}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is an aggregate report.',
  ];
  for (const a of options.attachments) {
    lines.push(
      `--${boundary}`,
      `Content-Type: ${a.contentType}; name="${a.filename}"`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="${a.filename}"`,
      '',
    );
    lines.push(...(a.data.toString('base64').match(/.{1,76}/g) ?? []));
  }
  lines.push(`--${boundary}--`, '');
  return Buffer.from(lines.join('\r\n'), 'utf8');
}
