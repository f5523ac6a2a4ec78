/**
 * The new password of a form with a `password` (or `new`) field and a `repeat` field: the password,
 * or the sentence to show when the two differ. Used by the reset, invitation and settings forms.
 */
export function newPasswordOf(form: FormData, field = 'password'): { password: string; problem: string | null } {
  const password = String(form.get(field) ?? '');
  const problem = password === String(form.get('repeat') ?? '') ? null : 'The two passwords differ; type the same one twice.';
  return { password, problem };
}
