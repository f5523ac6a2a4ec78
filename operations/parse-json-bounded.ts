import { ApiError } from './api-error.js';

/**
 * The deepest nesting of arrays and objects a JSON text may have. Our own bodies nest a handful of
 * levels; each later step (key renaming, input coercion, the MCP SDK's validation) walks a value by
 * recursion, so a text nested 10,000 deep would overflow the stack there.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether a JSON text nests arrays and objects deeper than `max`, read character by character (no recursion, no parse). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

export const TOO_DEEP_DETAIL = `The JSON nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; send a flatter body (ours need a few levels).`;

export function tooDeepError(): ApiError {
  return new ApiError(400, 'json_too_deep', TOO_DEEP_DETAIL, { max_depth: MAX_JSON_DEPTH });
}

/** JSON.parse that first refuses a too-deep text (400 json_too_deep), and answers a text that is not JSON with the door's own 400. */
export function parseJsonBounded(text: string, notJson: { readonly code: string; readonly detail: string }): unknown {
  if (jsonTooDeep(text)) throw tooDeepError();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, notJson.code, notJson.detail);
  }
}
