import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { validateSvgTinyPs } from '../../resolvers/checks/bimi/validate-svg-tiny-ps.js';

/** A minimal logo that follows every SVG Tiny PS rule we check. */
const VALID =
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 100 100">' +
  '<title>Example Brand</title><defs><linearGradient id="g"><stop offset="0" stop-color="#c00"/></linearGradient></defs>' +
  '<circle cx="50" cy="50" r="40" fill="url(#g)"/><use xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#g"/></svg>';

const withRoot = (attributes: string, body = '<title>Brand</title><rect width="10" height="10"/>') =>
  `<svg xmlns="http://www.w3.org/2000/svg" ${attributes}>${body}</svg>`;
const TINY_PS = 'version="1.2" baseProfile="tiny-ps" viewBox="0 0 64 64"';

const check = (svg: string) => validateSvgTinyPs(Buffer.from(svg));

describe('SVG Tiny PS validation', () => {
  it('accepts a valid logo, with gradients and internal references', () => {
    expect(check(VALID)).toMatchObject({ valid: true, problems: [] });
  });

  it('accepts the same logo gzip-compressed (SVGZ) and returns the unpacked SVG', () => {
    const result = validateSvgTinyPs(gzipSync(VALID));
    expect(result.valid).toBe(true);
    expect(result.svg?.toString()).toBe(VALID);
  });

  it.each([
    ['no version', withRoot('baseProfile="tiny-ps" viewBox="0 0 64 64"'), /version="1.2" \(it has none\)/],
    ['version 1.1', withRoot('version="1.1" baseProfile="tiny-ps" viewBox="0 0 64 64"'), /version="1.2" \(it has "1.1"\)/],
    ['baseProfile tiny', withRoot('version="1.2" baseProfile="tiny" viewBox="0 0 64 64"'), /baseProfile="tiny-ps" \(it has "tiny"\)/],
    ['no title', withRoot(TINY_PS, '<rect width="10" height="10"/>'), /no <title>/],
    ['an empty title', withRoot(TINY_PS, '<title>  </title>'), /<title> element is empty/],
    ['a title only deep inside', withRoot(TINY_PS, '<g><title>Brand</title></g>'), /no <title>/],
    ['no viewBox', withRoot('version="1.2" baseProfile="tiny-ps"'), /no viewBox/],
    ['a wide viewBox', withRoot('version="1.2" baseProfile="tiny-ps" viewBox="0 0 200 100"'), /200 by 100; the logo must be square/],
    ['a broken viewBox', withRoot('version="1.2" baseProfile="tiny-ps" viewBox="0 0 a b"'), /not four numbers/],
    ['x and y on the root', withRoot(`${TINY_PS} x="0" y="0"`), /must not have x or y/],
    ['no SVG namespace', '<svg version="1.2" baseProfile="tiny-ps" viewBox="0 0 1 1"><title>B</title></svg>', /SVG namespace/],
    ['a script', withRoot(TINY_PS, '<title>B</title><script>alert(1)</script>'), /<script>/],
    ['an animation', withRoot(TINY_PS, '<title>B</title><rect><animate attributeName="x" to="5"/></rect>'), /<animate>/],
    ['a set element', withRoot(TINY_PS, '<title>B</title><rect><set attributeName="x" to="5"/></rect>'), /<set>/],
    ['an animateTransform', withRoot(TINY_PS, '<title>B</title><g><animateTransform attributeName="transform"/></g>'), /<animateTransform>/],
    ['a raster image', withRoot(TINY_PS, '<title>B</title><image href="data:image/png;base64,AAAA" width="1" height="1"/>'), /<image>/],
    ['a foreignObject', withRoot(TINY_PS, '<title>B</title><foreignObject/>'), /<foreignObject>/],
    [
      'an external xlink:href',
      withRoot(`${TINY_PS} xmlns:xlink="http://www.w3.org/1999/xlink"`, '<title>B</title><use xlink:href="http://evil.test/a.svg#x"/>'),
      /outside resource \(xlink:href/,
    ],
    ['an external href', withRoot(TINY_PS, '<title>B</title><a href="https://brand.test/"><rect/></a>'), /outside resource \(href/],
    ['an external url() fill', withRoot(TINY_PS, '<title>B</title><rect fill="url(https://evil.test/p.svg#g)"/>'), /only url\(#id\)/],
    ['a style sheet import', withRoot(TINY_PS, '<title>B</title><style>@import url(https://evil.test/x.css);</style>'), /<style> element/],
    ['an event handler', withRoot(`${TINY_PS} onload="x()"`), /event handler/],
    ['a root that is not svg', '<html><title>B</title></html>', /root element is not <svg>/],
    ['XML that is not well-formed', '<svg><title>B</svg>', /not well-formed XML/],
  ])('refuses a logo with %s', (_name, svg, problem) => {
    const result = check(svg);
    expect(result.valid).toBe(false);
    expect(result.problems.join('\n')).toMatch(problem);
  });

  it('refuses a logo over 32 KiB and says how big it is', () => {
    const big = withRoot(TINY_PS, `<title>B</title><desc>${'x'.repeat(33 * 1024)}</desc>`);
    const result = check(big);
    expect(result.valid).toBe(false);
    expect(result.problems[0]).toContain(`${Buffer.byteLength(big)} bytes, above the 32768-byte`);
  });

  it('does not expand entities declared in a DOCTYPE (a "billion laughs" file stays small and fast)', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY e${i + 1} "${`&e${i};`.repeat(10)}">`).join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e0 "lol">${levels}]>${withRoot(TINY_PS, '<title>&e9;</title>')}`;
    // Expanded, &e9; would be a billion copies of "lol": the check would not finish within the test's time.
    const result = check(bomb);
    expect(result.valid).toBe(true);
  });

  it('refuses a file that claims gzip but is not', () => {
    expect(validateSvgTinyPs(Buffer.from([0x1f, 0x8b, 1, 2, 3])).problems[0]).toMatch(/could not be unpacked/);
  });
});
