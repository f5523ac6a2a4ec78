import type { Services } from '../resolvers/context.js';
import { createContext } from '../resolvers/context.js';
import type { Yoga } from './create-yoga.js';
import type { RequestInfo } from './serve-http.js';

/** /graphql for our own frontends: the same schema, the same Context, the same limits. */
export function handleGraphql(yoga: Yoga, services: Services, request: Request, info: RequestInfo): Promise<Response> {
  const appContext = createContext(services, {
    authorization: request.headers.get('authorization'),
    requestId: info.requestId,
    clientAddress: info.clientAddress,
  });
  return Promise.resolve(yoga.fetch(request, { appContext }));
}
