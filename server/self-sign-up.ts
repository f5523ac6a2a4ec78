/** SELF_SIGN_UP (on): "off" closes POST /auth/sign-up; people then join by invitation or `admin create-user`. */
export function selfSignUpFromEnv(env: NodeJS.ProcessEnv): boolean {
  const raw = (env.SELF_SIGN_UP ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error(`SELF_SIGN_UP must be "on" or "off", not "${env.SELF_SIGN_UP}".`);
}
