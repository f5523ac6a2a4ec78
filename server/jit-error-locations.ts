import { GraphQLError, type Source, type SourceLocation } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** Offsets where each line of a document's text starts, computed once per document. */
const lineStarts = new WeakMap<Source, number[]>();

function startsOf(source: Source): number[] {
  let starts = lineStarts.get(source);
  if (!starts) {
    starts = [0];
    const re = /\r\n|[\n\r]/g;
    for (let m = re.exec(source.body); m; m = re.exec(source.body)) starts.push(m.index + m[0].length);
    lineStarts.set(source, starts);
  }
  return starts;
}

/**
 * graphql-jit's field errors carry `locations` (line and column) but neither the AST nodes nor the
 * source and positions that graphql-js errors carry, and yoga, masking and serialising, rebuilds each
 * error from those: the locations would vanish from /graphql answers. This gives such errors the
 * document's source and positions back, so an answer reads the same whichever executor ran it.
 */
export function useJitErrorLocations(): Plugin {
  return {
    onExecute({ args }) {
      const source = args.document.loc?.source;
      if (!source) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result) || !result.errors?.some((e) => !e.nodes && !e.source && e.locations?.length)) return;
          const starts = startsOf(source);
          setResult({
            ...result,
            errors: result.errors.map((e) =>
              e.nodes || e.source || !e.locations?.length
                ? e
                : new GraphQLError(e.message, {
                    source,
                    positions: e.locations.map((l: SourceLocation) => (starts[l.line - 1] ?? 0) + l.column - 1),
                    path: e.path,
                    originalError: e.originalError,
                    extensions: e.extensions,
                  }),
            ),
          });
        },
      };
    },
  };
}
