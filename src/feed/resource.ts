// The resource routing convention (feed-api.md, "Resource routing convention") over fastify: a resource
// object registered under a path answers
//   GET /path/ → Index   GET /path/id → Find   POST /path/ → Create   PUT /path/id → Update
//   DELETE /path/id → Delete   OPTIONS /path/ and /path/id → Options
// HEAD is answered like GET (without a body). A method the object lacks answers 405 with an `Allow`
// header listing the methods it has; the same header is set before Options runs.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { errorBody, methodNotAllowed } from './errors';

type Answer = unknown;
export interface Resource {
  Index?(reply: FastifyReply, request: FastifyRequest): Answer | Promise<Answer>;
  Find?(reply: FastifyReply, id: string, request: FastifyRequest): Answer | Promise<Answer>;
  Create?(reply: FastifyReply, request: FastifyRequest): Answer | Promise<Answer>;
  Update?(reply: FastifyReply, id: string, request: FastifyRequest): Answer | Promise<Answer>;
  Delete?(reply: FastifyReply, id: string, request: FastifyRequest): Answer | Promise<Answer>;
  /** `id` is '' on the collection path. */
  Options?(reply: FastifyReply, id: string, request: FastifyRequest): Answer | Promise<Answer>;
}

// Every method fastify routes, so that any of them reaches the convention and gets its 405.
const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const;

type Target = 'collection' | 'item';

/** The HTTP methods `resource` answers on the collection or the item path, in a fixed order. */
export function allowedMethods(resource: Resource, target: Target): string[] {
  const allow: string[] = [];
  if (target === 'collection') {
    if (resource.Index) allow.push('GET', 'HEAD');
    if (resource.Create) allow.push('POST');
  } else {
    if (resource.Find) allow.push('GET', 'HEAD');
    if (resource.Update) allow.push('PUT');
    if (resource.Delete) allow.push('DELETE');
  }
  if (resource.Options) allow.push('OPTIONS');
  return allow;
}

function dispatch(resource: Resource, target: Target, method: string, reply: FastifyReply, request: FastifyRequest, id: string) {
  if (target === 'collection') {
    if ((method === 'GET' || method === 'HEAD') && resource.Index) return () => resource.Index!(reply, request);
    if (method === 'POST' && resource.Create) return () => resource.Create!(reply, request);
  } else {
    if ((method === 'GET' || method === 'HEAD') && resource.Find) return () => resource.Find!(reply, id, request);
    if (method === 'PUT' && resource.Update) return () => resource.Update!(reply, id, request);
    if (method === 'DELETE' && resource.Delete) return () => resource.Delete!(reply, id, request);
  }
  if (method === 'OPTIONS' && resource.Options) return () => resource.Options!(reply, id, request);
  return undefined;
}

/**
 * Registers `resource` under `path` (no trailing slash; the app ignores trailing slashes, so `/path` and
 * `/path/` are the collection). The item route `/path/:id` exists when the resource has Find, Update or
 * Delete.
 */
export function registerResource(app: FastifyInstance, path: string, resource: Resource, options: Pick<RouteShorthandOptions, 'config'> = {}): void {
  const route = (target: Target, url: string) => {
    const allow = allowedMethods(resource, target);
    app.route({
      ...options,
      method: [...ALL_METHODS],
      url,
      // HEAD is ours (answered like GET), not fastify's automatic one.
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        const id = target === 'item' ? (request.params as { id: string }).id : '';
        const call = dispatch(resource, target, request.method, reply, request, id);
        if (!call) {
          // Answered here, not thrown, so that the convention stands on its own (any error handler).
          const e = methodNotAllowed(request.method, request.url.split('?')[0]!, allow);
          return reply.code(405).headers(e.headers).send(errorBody(e.code, e.message, e.details));
        }
        if (request.method === 'OPTIONS') reply.header('Allow', allow.join(', '));
        const answer = await call();
        if (!reply.sent) return reply.send(answer);
        return reply;
      },
    });
  };
  route('collection', path);
  if (resource.Find || resource.Update || resource.Delete) route('item', `${path}/:id`);
}
