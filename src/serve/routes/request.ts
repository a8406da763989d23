/** A request as the route table sees it: its path parsed once, before any handler runs. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServeContext, Target } from '../http.js';

export interface ServeRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The path as sent, before any decoding (reviews are looked up by it). */
  readonly rawPath: string;
  /** The decoded path segments of a GET (none for other methods). */
  readonly segs: readonly string[];
  readonly params: URLSearchParams;
  /** `/api/v1` or `/apis/G/V` with nothing after it: a group version's resource list. */
  readonly groupVersion?: { readonly group: string; readonly version: string };
  /** The resource a resource path names. */
  readonly target?: Target;
}

export interface Route {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly matches: (r: ServeRequest) => boolean;
  readonly handle: (ctx: ServeContext, r: ServeRequest) => void;
}
