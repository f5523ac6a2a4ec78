import { Client, cacheExchange, fetchExchange } from 'urql';

/**
 * The portal's GraphQL client: same-origin /graphql with the session cookie. Every request carries
 * the CSRF header the account listener asks of cookie-signed requests (server/graphql-door.ts).
 */
export const client = new Client({
  url: `${window.location.origin}/graphql`,
  exchanges: [cacheExchange, fetchExchange],
  requestPolicy: 'cache-and-network',
  fetchOptions: () => ({ credentials: 'same-origin', headers: { 'x-graphql-yoga-csrf': 'portal' } }),
});
