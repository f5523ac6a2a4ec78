import type { SpfMechanismTerm } from './parse-spf-record.js';

/** What follows the mechanism name: "example.com", "192.0.2.0/24", "/24//64"... */
export function mechanismValue(term: SpfMechanismTerm): string | null {
  const rest = term.text.replace(/^[+\-~?]?[a-zA-Z0-9]+/, '');
  if (rest === '') return null;
  return rest.startsWith(':') ? rest.slice(1) : rest;
}
