import { toolNameOf, type OperationRow } from './operation-table.js';
import { inputSchemaFor } from './input-schema.js';

/** The version string of the public checks description (SPEC 9). */
export const CHECKS_API_VERSION = '2026-09-26';

/**
 * {base_url}/tools.json: every public check with its input JSON Schema, generated from the operation
 * table. `name` is the tool's MCP name (check_spf), so an assistant that reads the catalogue can call
 * each tool by the name it found; the REST name (check-spf) is the last segment of `path`.
 */
export function toolsCatalogue(rows: readonly OperationRow[], baseUrl: string) {
  return {
    version: CHECKS_API_VERSION,
    base_url: baseUrl,
    mcp_url: `${baseUrl}/mcp`,
    tools: rows
      .filter((r) => r.listener === 'public')
      .map((row) => ({
        name: toolNameOf(row),
        operationId: row.name,
        description: row.summary,
        method: row.method,
        path: row.path,
        also_post: true,
        input_schema: inputSchemaFor(row),
      })),
  };
}
