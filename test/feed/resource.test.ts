// The resource routing convention on its own: a toy resource on a bare fastify, driven over real HTTP.
import { strict as assert } from 'node:assert';
import Fastify, { type FastifyInstance } from 'fastify';
import { allowedMethods, registerResource, type Resource } from '../../src/feed/resource';

describe('feed: resource routing convention', () => {
  let app: FastifyInstance;
  let base: string;
  const calls: string[] = [];

  // A toy shelf of notes: every method says which method it is and what id it got.
  const notes: Resource = {
    Index: () => ({ method: 'Index' }),
    Find: (_r, id) => ({ method: 'Find', id }),
    Create: (reply, request) => {
      reply.code(201);
      return { method: 'Create', body: request.body };
    },
    Update: (_r, id, request) => ({ method: 'Update', id, body: request.body }),
    Delete: (reply, id) => {
      calls.push(`Delete ${id}`);
      return reply.code(204).send();
    },
    Options: (reply, id) => {
      calls.push(`Options ${JSON.stringify(id)}`);
      return reply.code(204).send();
    },
  };
  // A read-only resource without Options: everything else is 405.
  const readOnly: Resource = { Index: () => ['a', 'b'], Find: (_r, id) => ({ id }) };
  // Only a collection: no item route at all.
  const inbox: Resource = { Create: () => ({ queued: true }) };

  before(async () => {
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    registerResource(app, '/notes', notes);
    registerResource(app, '/shelf', readOnly);
    registerResource(app, '/inbox', inbox);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  after(() => app.close());

  const send = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(base + path, {
      method,
      ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
    const text = await r.text();
    return { status: r.status, allow: r.headers.get('allow'), json: text ? JSON.parse(text) : undefined };
  };

  it('routes each method on the collection and item paths to its resource method', async () => {
    assert.deepEqual((await send('GET', '/notes/')).json, { method: 'Index' });
    assert.deepEqual((await send('GET', '/notes')).json, { method: 'Index' });
    assert.deepEqual((await send('GET', '/notes/n1')).json, { method: 'Find', id: 'n1' });
    const created = await send('POST', '/notes/', { text: 'hi' });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json, { method: 'Create', body: { text: 'hi' } });
    assert.deepEqual((await send('PUT', '/notes/n2', { text: 'yo' })).json, { method: 'Update', id: 'n2', body: { text: 'yo' } });
    assert.equal((await send('DELETE', '/notes/n3')).status, 204);
    assert.ok(calls.includes('Delete n3'), 'calls.includes(\'Delete n3\')');
  });

  it('passes a percent-encoded id decoded', async () => {
    assert.deepEqual((await send('GET', '/notes/a%20b')).json, { method: 'Find', id: 'a b' });
  });

  it('answers OPTIONS on both paths with the Options method and an Allow header of the methods the object has', async () => {
    const collection = await send('OPTIONS', '/notes/');
    assert.equal(collection.status, 204);
    assert.equal(collection.allow, 'GET, HEAD, POST, OPTIONS');
    const item = await send('OPTIONS', '/notes/n4');
    assert.equal(item.status, 204);
    assert.equal(item.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
    assert.ok(calls.includes('Options ""') && calls.includes('Options "n4"'), 'calls.includes(\'Options ""\') && calls.includes(\'Options "n4"\')');
  });

  it('answers HEAD like GET, without a body', async () => {
    const r = await fetch(`${base}/notes/n5`, { method: 'HEAD' });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), '');
  });

  it('answers a method the object lacks with 405, an Allow header and the JSON error body', async () => {
    const put = await send('PUT', '/shelf/x', {});
    assert.equal(put.status, 405);
    assert.equal(put.allow, 'GET, HEAD');
    assert.equal(put.json.error.code, 'method_not_allowed');
    assert.match(put.json.error.message, /PUT is not allowed on \/shelf\/x/);
    const post = await send('POST', '/shelf/', {});
    assert.equal(post.status, 405);
    assert.equal(post.allow, 'GET, HEAD');
    // No Options method: OPTIONS is a method it lacks too.
    assert.equal((await send('OPTIONS', '/shelf/')).status, 405);
    const patch = await send('PATCH', '/notes/n6', {});
    assert.equal(patch.status, 405);
    assert.equal(patch.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
    const get = await send('GET', '/inbox');
    assert.equal(get.status, 405);
    assert.equal(get.allow, 'POST');
  });

  it('has no item route for a resource without Find, Update or Delete', async () => {
    assert.equal((await send('GET', '/inbox/x')).status, 404);
    assert.deepEqual(allowedMethods(inbox, 'item'), []);
  });
});
