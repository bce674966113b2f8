import { strict as assert } from 'node:assert';
import { TaskServiceClient } from '../../src/adapter/client';
import { readConfig } from '../../src/adapter/config';
import { UsageError } from '../../src/adapter/outcome';

describe('adapter configuration', () => {
  it('defaults to the contract addresses and a 30 s request timeout', () => {
    const c = readConfig({});
    assert.equal(c.baseUrl, 'http://127.0.0.1:8080');
    assert.equal(c.runtimeUrl, 'http://127.0.0.1:18080');
    assert.equal(c.requestTimeoutMs, 30_000);
    assert.deepEqual([c.composeDir, c.runtimeImage, c.runtimeSource], ['', '', '']);
  });

  it('SERVICE_RUNTIME_CONTAINER_PORT: 8080 by default, a port number when set, a usage error naming it otherwise', () => {
    assert.equal(readConfig({}).runtimeContainerPort, 8080);
    assert.equal(readConfig({ SERVICE_RUNTIME_CONTAINER_PORT: '9000' }).runtimeContainerPort, 9000);
    for (const bad of ['0', '65536', 'http', '80.5', '-1']) {
      assert.throws(() => readConfig({ SERVICE_RUNTIME_CONTAINER_PORT: bad }), new RegExp(`SERVICE_RUNTIME_CONTAINER_PORT="${bad.replace('.', '\\.')}": expected a port number from 1 to 65535`));
    }
  });

  it('treats empty variables as unset', () => {
    assert.equal(readConfig({ SERVICE_URL: '', SERVICE_REQUEST_TIMEOUT: ' ' }).baseUrl, 'http://127.0.0.1:8080');
  });

  it('keeps a path prefix and drops trailing slashes when building endpoint URLs', () => {
    const client = new TaskServiceClient(readConfig({ SERVICE_URL: 'https://tasks.example/api/v2/' }));
    assert.equal(client.url('/adapters/tools').toString(), 'https://tasks.example/api/v2/adapters/tools');
    assert.equal(client.url(`/tasks/${encodeURIComponent('a/b c')}`).toString(), 'https://tasks.example/api/v2/tasks/a%2Fb%20c');
  });

  it('refuses non-http URLs and bad timeouts as usage errors naming the variable', () => {
    assert.throws(() => readConfig({ SERVICE_RUNTIME_URL: 'ftp://x' }), (e: unknown) => e instanceof UsageError && /SERVICE_RUNTIME_URL/.test(e.message));
    assert.throws(() => readConfig({ SERVICE_REQUEST_TIMEOUT: '0' }), /SERVICE_REQUEST_TIMEOUT="0": must be positive/);
    assert.equal(readConfig({ SERVICE_REQUEST_TIMEOUT: '1m30s' }).requestTimeoutMs, 90_000);
  });
});
