/** Where the authorization server's endpoints sit on the account listener (all under /oauth/). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  jwks: '/oauth/jwks',
  revocation: '/oauth/revoke',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/end-session',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  backchannel_authentication: '/oauth/backchannel',
} as const;

/** The consent page of one authorization request (server/oauth-routes.ts). */
export const INTERACTION_PREFIX = '/oauth/interaction/';
