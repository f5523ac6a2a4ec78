import { isAsyncIterable, processRegularResult, type GraphQLParams, type Plugin } from 'graphql-yoga';
import { jsonTextResponse } from '../operations/json-response.js';
import { holdsLargeList, stringifyInTurns } from './stringify-in-turns.js';

/** What the /graphql door hands yoga beside the request (server/graphql-door.ts). */
export interface GraphqlDoorServerContext {
  /** The one operation the door already read from the JSON body, so yoga does not parse the body again. */
  readonly parsedParams?: GraphQLParams;
  /** The media type yoga answers a single result as, for the request's Accept (null: a stream, or 406). */
  readonly regularMediaType?: string | null;
}

/**
 * The /graphql door's part in yoga's one HTTP path. The request's parameters as the door read them,
 * when it read one JSON operation (the body was read once, for the allowance), so yoga does not parse
 * the body again; that operation's result written as its JSON text, held unread for serve-http to
 * write as it is (the portal's and our frontends' common request, the 500-domain dashboard among them).
 * And every single result refused before execution (syntax, validation, armor's limits, our rules:
 * errors and no data) answered 400 where yoga's regular writer says 200: GraphQL over HTTP answers
 * those 200 for application/json; we answer 400, so any client sees the refusal. Batches, streams and
 * GraphiQL's page are yoga's own.
 */
export function useGraphqlDoorAnswers(): Plugin<Record<string, unknown>, GraphqlDoorServerContext> {
  return {
    onRequestParse({ serverContext, setRequestParser }) {
      const params = serverContext.parsedParams;
      if (params) setRequestParser(() => params);
    },
    onResultProcess(payload) {
      const { result, serverContext } = payload;
      // Only where yoga chose its regular writer, whose media type the door worked out the same way.
      const mediaType = serverContext.regularMediaType;
      if (payload.resultProcessor !== processRegularResult || !mediaType || Array.isArray(result) || isAsyncIterable(result)) return;
      const readByDoor = serverContext.parsedParams !== undefined;
      payload.setResultProcessor((single, fetchAPI) => {
        if (Array.isArray(single) || isAsyncIterable(single)) return processRegularResult(single, fetchAPI, mediaType);
        if (readByDoor && !single.errors?.length && !single.extensions?.http) return asJsonAnswer(single, mediaType);
        const written = processRegularResult(single, fetchAPI, mediaType);
        const nothingRan = single.data === undefined && Boolean(single.errors?.length);
        if (readByDoor) return asJsonText(written, nothingRan);
        return written.status === 200 && nothingRan ? statusOf(written, 400) : written;
      }, mediaType);
    },
  };
}

/**
 * A result without errors as its JSON text. A large one (a keyless verifyEmail of 5,000 addresses is
 * 1.7 MB) is written with turns of the event loop in between, so the requests that came meanwhile are
 * not held (stringify-in-turns.ts); the text is the same as JSON.stringify's.
 */
async function asJsonAnswer(single: object, mediaType: string): Promise<Response> {
  const text = holdsLargeList(single) ? await stringifyInTurns(single) : JSON.stringify(single);
  return jsonTextResponse(200, text, { 'content-type': `${mediaType}; charset=utf-8`, 'content-length': String(Buffer.byteLength(text)) });
}

/** Yoga's written answer as a JSON answer holding its text, 400 when it says 200 and nothing ran. */
async function asJsonText(written: Response, nothingRan: boolean): Promise<Response> {
  const text = await written.text();
  const status = written.status === 200 && nothingRan ? 400 : written.status;
  const headers: Record<string, string> = {};
  written.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return jsonTextResponse(status, text, headers);
}

/** The same answer with another status. */
async function statusOf(written: Response, status: number): Promise<Response> {
  return new Response(await written.text(), { status, headers: written.headers });
}
