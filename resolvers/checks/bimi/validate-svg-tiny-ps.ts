import { gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface SvgTinyPsResult {
  readonly valid: boolean;
  readonly problems: readonly string[];
  /** The SVG text after un-gzipping an SVGZ file, or null when it could not be read. */
  readonly svg: Buffer | null;
}

/** The BIMI SVG profile document recommends at most 32 KiB for the indicator. */
export const SVG_MAX_BYTES = 32 * 1024;

// Elements the SVG Tiny Portable/Secure profile leaves out: scripts, animation, raster images, embedded
// foreign content and media. A logo must be a still, self-contained vector drawing.
const FORBIDDEN: Readonly<Record<string, string>> = {
  script: 'a <script> element (scripts are not allowed)',
  animate: 'an <animate> element (animation is not allowed)',
  animatecolor: 'an <animateColor> element (animation is not allowed)',
  animatemotion: 'an <animateMotion> element (animation is not allowed)',
  animatetransform: 'an <animateTransform> element (animation is not allowed)',
  set: 'a <set> element (animation is not allowed)',
  image: 'an <image> element (embedded raster images are not allowed)',
  foreignobject: 'a <foreignObject> element (foreign content is not allowed)',
  video: 'a <video> element (media is not allowed)',
  audio: 'an <audio> element (media is not allowed)',
  iframe: 'an <iframe> element',
};

type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const localName = (name: string): string => name.slice(name.indexOf(':') + 1).toLowerCase();

/**
 * Checks an indicator against the SVG Tiny PS profile BIMI requires (the BIMI Group's SVG profile,
 * draft-svg-tiny-ps-abrotman): well-formed XML whose root is <svg> in the SVG namespace with
 * version="1.2" and baseProfile="tiny-ps", a non-empty <title>, a square viewBox, no x or y on the
 * root, no script, animation, raster image, foreign object or media element, no reference to anything
 * outside the file (href/xlink:href other than "#fragment", url(...) other than url(#...)), and at
 * most 32 KiB. An SVGZ (gzip) file is unpacked first.
 *
 * Entities are not expanded (processEntities off), so a hostile file cannot grow in memory.
 */
export function validateSvgTinyPs(body: Buffer): SvgTinyPsResult {
  const problems: string[] = [];
  let svg = body;
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      svg = gunzipSync(body, { maxOutputLength: 1024 * 1024 });
    } catch {
      return { valid: false, problems: ['the file looks gzip-compressed (SVGZ) but could not be unpacked'], svg: null };
    }
  }
  if (svg.length > SVG_MAX_BYTES) problems.push(`the SVG is ${svg.length} bytes, above the ${SVG_MAX_BYTES}-byte (32 KiB) limit`);

  const text = svg.toString('utf8');
  const wellFormed = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (wellFormed !== true) {
    return { valid: false, problems: [...problems, `the file is not well-formed XML (line ${wellFormed.err.line}: ${wellFormed.err.msg})`], svg };
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    processEntities: false,
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: true,
  });
  const nodes = parser.parse(text) as XmlNode[];
  const elements = nodes.filter((n) => elementName(n) !== null && !elementName(n)!.startsWith('?'));
  const root = elements[0];
  if (elements.length !== 1 || !root || localName(elementName(root)!) !== 'svg') {
    return { valid: false, problems: [...problems, 'the root element is not <svg>'], svg };
  }
  const attrs = root[':@'] ?? {};
  const rootName = elementName(root)!;
  const prefix = rootName.includes(':') ? `:${rootName.slice(0, rootName.indexOf(':'))}` : '';
  if (attrs[`xmlns${prefix}`] !== 'http://www.w3.org/2000/svg')
    problems.push('the root <svg> does not declare the SVG namespace xmlns="http://www.w3.org/2000/svg"');
  if (attrs.version !== '1.2') problems.push(`the root <svg> must have version="1.2" (it has ${attrs.version === undefined ? 'none' : `"${attrs.version}"`})`);
  if (attrs.baseProfile !== 'tiny-ps')
    problems.push(`the root <svg> must have baseProfile="tiny-ps" (it has ${attrs.baseProfile === undefined ? 'none' : `"${attrs.baseProfile}"`})`);
  if ('x' in attrs || 'y' in attrs) problems.push('the root <svg> must not have x or y attributes');

  const viewBox = attrs.viewBox
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (!viewBox) problems.push('the root <svg> has no viewBox; give a square one such as viewBox="0 0 100 100"');
  else if (viewBox.length !== 4 || viewBox.some((n) => !Number.isFinite(n)) || viewBox[2]! <= 0 || viewBox[3]! <= 0)
    problems.push(`the viewBox "${attrs.viewBox}" is not four numbers with a positive width and height`);
  else if (Math.abs(viewBox[2]! - viewBox[3]!) > 1e-9) problems.push(`the viewBox is ${viewBox[2]} by ${viewBox[3]}; the logo must be square`);

  const children = (root[rootName] as XmlNode[] | undefined) ?? [];
  const title = children.find((c) => localName(elementName(c) ?? '') === 'title');
  if (!title) problems.push('the root <svg> has no <title> element naming the brand');
  else if (textOf(title).trim() === '') problems.push('the <title> element is empty');

  const found = new Set<string>();
  // From the root itself, so an onload= on <svg> is seen too.
  walk([root], (name, attributes, node) => {
    const forbidden = FORBIDDEN[localName(name)];
    if (forbidden) found.add(`the SVG contains ${forbidden}`);
    if (localName(name) === 'style' && /@import|url\(\s*['"]?(?!#)/i.test(textOf(node))) {
      found.add('a <style> element imports or refers to an outside resource; only url(#id) is allowed');
    }
    for (const [attr, value] of Object.entries(attributes)) {
      const local = localName(attr);
      if (local === 'href' && !value.trim().startsWith('#'))
        found.add(`the SVG refers to an outside resource (${attr}="${value.slice(0, 80)}"); only references inside the file (#id) are allowed`);
      if (/url\(\s*['"]?(?!#)/i.test(value)) found.add(`the SVG refers to an outside resource (${attr}="${value.slice(0, 80)}"); only url(#id) is allowed`);
      if (/^on/i.test(local)) found.add(`the SVG has an event handler attribute (${attr}); scripts are not allowed`);
    }
  });
  problems.push(...found);
  return { valid: problems.length === 0, problems, svg };
}

function elementName(node: XmlNode): string | null {
  return Object.keys(node).find((k) => k !== ':@' && k !== '#text') ?? null;
}

function textOf(node: XmlNode): string {
  const name = elementName(node);
  const children = name ? (node[name] as XmlNode[]) : [];
  return children.map((c) => (typeof c['#text'] === 'string' ? c['#text'] : textOf(c))).join('');
}

function walk(nodes: readonly XmlNode[], visit: (name: string, attributes: Record<string, string>, node: XmlNode) => void): void {
  for (const node of nodes) {
    const name = elementName(node);
    if (!name) continue;
    visit(name, node[':@'] ?? {}, node);
    const children = node[name];
    if (Array.isArray(children)) walk(children as XmlNode[], visit);
  }
}
