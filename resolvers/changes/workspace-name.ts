import { DomainError } from '../domain-error.js';

export const WORKSPACE_NAME_MAX = 100;

/** A folder name as a person sees it: trimmed, 1 to 100 characters, no control characters. */
export function checkWorkspaceName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw new DomainError('workspace_name_empty', 'Give the workspace a name: "name" must have at least one character that is not a space.');
  if (name.length > WORKSPACE_NAME_MAX)
    throw new DomainError('workspace_name_too_long', `A workspace name is at most ${WORKSPACE_NAME_MAX} characters; this one has ${name.length}.`);
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw new DomainError('workspace_name_invalid', 'A workspace name cannot hold line breaks or other control characters.');
  return name;
}
