import type { ServeContext, Target } from '../http.js';
import { typeKey } from '../resources.js';
import { notFound } from '../status.js';

export function target(ctx: ServeContext, group: string, version: string, rest: readonly string[]): Target {
  const store = ctx.opts.store;
  const find = (plural: string) => store.type(typeKey({ group, version, plural }));
  const missing = (plural: string) =>
    notFound(`the server doesn't have a resource type "${plural}"`, {
      ...(group ? { group } : {}),
      kind: plural,
    });
  // /namespaces/NS/PLURAL[/NAME[/SUB]]
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const namespace = rest[1] as string;
    const plural = rest[2] as string;
    const type = find(plural);
    if (!type) throw missing(plural);
    if (!type.namespaced) throw notFound(`${plural} is not namespaced`);
    if (rest.length > 5) throw notFound('the server could not find the requested resource');
    return {
      type,
      namespace,
      ...(rest[3] !== undefined ? { name: rest[3] } : {}),
      ...(rest[4] !== undefined ? { subresource: rest[4] } : {}),
    };
  }
  const plural = rest[0] as string;
  const type = find(plural);
  if (!type) throw missing(plural);
  if (rest.length > 3) throw notFound('the server could not find the requested resource');
  if (type.namespaced && rest.length > 1) throw notFound('the server could not find the requested resource');
  return {
    type,
    ...(rest[1] !== undefined ? { name: rest[1] } : {}),
    ...(rest[2] !== undefined ? { subresource: rest[2] } : {}),
  };
}
