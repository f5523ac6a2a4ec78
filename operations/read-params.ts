import { ApiError } from './api-error.js';
import type { OperationRow } from './operation-table.js';
import { snakeToCamel } from './snake-to-camel.js';
import { inputNoun, inputShapeStatus, missingFieldError, unknownInputsError, type Door } from './describe-input-error.js';

/**
 * Path and query parameters of a row as GraphQL variables. Query parameters the row does not name
 * are ignored (as caches and proxies add their own); one named twice is refused, as is a missing one.
 */
export function readParams(
  row: OperationRow,
  pathParams: Readonly<Record<string, string>>,
  query: URLSearchParams,
  fromBody?: Record<string, unknown>,
  door: Door = 'rest',
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  // Refusals of input in the wrong shape: one class, its status by listener (describe-input-error.ts).
  const status = inputShapeStatus(row.listener);
  const where = (param: { in: 'path' | 'query' | 'body' }) => (param.in === 'body' || (fromBody && param.in === 'query') ? 'body' : param.in);
  const noun = (param: { in: 'path' | 'query' | 'body' }) => inputNoun(door, where(param));
  if (fromBody) {
    // A JSON body is written on purpose, so a key the operation does not take is a mistake to report.
    // MCP passes the path parameters among the arguments; a REST body holds only the body's fields.
    const known = row.params.filter((p) => door === 'mcp' || p.in !== 'path').map((p) => p.name);
    const unknown = Object.keys(fromBody).filter((k) => !known.includes(k));
    if (unknown.length) throw unknownInputsError(unknown, known, door, row.listener);
  }
  for (const param of row.params) {
    let raw: unknown;
    if (param.in === 'path') {
      raw = pathParams[param.name];
    } else if (param.in === 'body' && fromBody && (param.type === 'boolean' || param.type === 'integer')) {
      // A typed field of a JSON body or an MCP argument: true/false, a whole number.
      raw = fromBody[param.name];
      if (param.type === 'boolean' && raw !== undefined && raw !== null && typeof raw !== 'boolean')
        throw new ApiError(status, 'invalid_field', `The ${noun(param)} "${param.name}" must be true or false (not ${JSON.stringify(raw).slice(0, 20)}).`);
      if (param.type === 'integer' && typeof raw === 'number') raw = Number.isInteger(raw) ? String(raw) : 'not whole';
    } else if (fromBody) {
      raw = fromBody[param.name];
      if (Array.isArray(raw) && raw.every((v) => typeof v === 'string')) raw = raw.join(',');
      // An integer parameter may come as a JSON number (MCP arguments follow the tool's schema); so may
      // a text one holding an id, such as starting_after=<order_id> (MCP clients and the Inspector CLI
      // send a bare 2 as a number): a whole number is taken as its digits.
      if (typeof raw === 'number' && (param.type === 'integer' || Number.isSafeInteger(raw))) raw = String(raw);
      if (raw !== undefined && raw !== null && typeof raw !== 'string') {
        throw new ApiError(
          status,
          'invalid_parameter',
          `The ${noun(param)} "${param.name}" must be text${param.name.endsWith('s') ? ' or a list of texts' : ''}.`,
        );
      }
    } else {
      const values = query.getAll(param.name);
      if (values.length > 1)
        throw new ApiError(status, 'repeated_parameter', `Pass the query parameter "${param.name}" once; it was given ${values.length} times.`);
      raw = values[0];
    }
    if (raw === undefined || raw === null || raw === '') {
      if (param.required) {
        const missing = missingFieldError(param.name, door, row.listener, param.description.replace(/\.$/, ''), where(param));
        throw new ApiError(missing.status, 'missing_parameter', missing.detail);
      }
      continue;
    }
    if (param.type === 'integer') {
      const text = String(raw);
      if (!/^-?\d{1,9}$/.test(text)) {
        throw new ApiError(
          param.in === 'path' ? 404 : status,
          param.in === 'path' ? 'not_found' : 'invalid_parameter',
          param.in === 'path'
            ? `There is no record with ${param.name} "${text.slice(0, 40)}"; ${param.name} is a whole number from a listing.`
            : `The ${noun(param)} "${param.name}" must be a whole number.`,
        );
      }
      variables[snakeToCamel(param.name)] = Number(text);
    } else if (param.type === 'boolean') {
      variables[snakeToCamel(param.name)] = raw;
    } else if (param.enum) {
      // The documented values are taken in any case, and passed on as written in the table (GraphQL enums are case-sensitive).
      const value = param.enum.find((v) => v.toLowerCase() === String(raw).trim().toLowerCase());
      if (value === undefined)
        throw new ApiError(
          status,
          `invalid_${param.name}`,
          `The ${noun(param)} "${param.name}" must be one of ${param.enum.join(', ')} (not "${String(raw).slice(0, 20)}").`,
        );
      variables[snakeToCamel(param.name)] = value;
    } else {
      variables[snakeToCamel(param.name)] = String(raw);
    }
  }
  return variables;
}
