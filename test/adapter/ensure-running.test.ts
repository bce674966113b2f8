// ensure-running: probes, exit codes 4 and 5, manual hints, and starting the service / runtime through
// a stand-in `docker` on PATH (a script that records its arguments and either fails like a docker
// without daemon or "starts" the service by signalling the test, which then listens on the port).
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPort, startHangingServer, startTaskService, type TaskService } from '../fixtures/task-service/service';
import { ensureAdapterBuilt, runAdapter, type Run } from './adapter-process';

const fakeDocker = `#!/bin/sh
echo "$*" >> "$FAKE_DOCKER_LOG"
if [ "$1 $2" = "compose version" ]; then
  if [ -n "$FAKE_DOCKER_NO_COMPOSE" ]; then echo "docker: unknown command: docker compose" >&2; exit 1; fi
  echo "Docker Compose version v2.0.0-fake"; exit 0
fi
if [ -n "$FAKE_DOCKER_HANG" ]; then
  # A compose that never finishes, ignores SIGTERM and has a child holding its output pipe.
  trap '' TERM
  echo $$ >> "$FAKE_DOCKER_HANG"
  /bin/sleep 300 &
  echo $! >> "$FAKE_DOCKER_HANG"
  /bin/sleep 300
  exit 0
fi
if [ -n "$FAKE_DOCKER_FAIL" ]; then
  echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2
  exit 1
fi
echo "started" > "$FAKE_DOCKER_MARKER"
exit 0
`;

async function whenFileAppears(file: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > end) throw new Error(`${file} did not appear`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('adapter ensure-running (real process)', () => {
  let dir: string;
  let binDir: string;
  let emptyBin: string;
  let composeDir: string;
  let log: string;
  let marker: string;
  const services: TaskService[] = [];

  before(() => {
    ensureAdapterBuilt();
    dir = mkdtempSync(join(tmpdir(), 'assay-ensure-'));
    binDir = join(dir, 'bin');
    emptyBin = join(dir, 'empty-bin');
    composeDir = join(dir, 'compose');
    for (const d of [binDir, emptyBin, composeDir]) mkdirSync(d);
    writeFileSync(join(composeDir, 'compose.yaml'), 'services: {}\n');
    writeFileSync(join(binDir, 'docker'), fakeDocker);
    chmodSync(join(binDir, 'docker'), 0o755);
  });
  beforeEach(() => {
    log = join(dir, `docker-${Date.now()}-${Math.random()}.log`);
    marker = `${log}.started`;
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  async function up(options: Parameters<typeof startTaskService>[0] = { runtime: true }): Promise<TaskService> {
    const s = await startTaskService(options);
    services.push(s);
    return s;
  }

  function dockerCalls(): string[] {
    return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  }

  it('everything up: exit 0, already-up, no hints', async () => {
    const s = await up();
    const r = await runAdapter(['ensure-running', '--with-runtime'], { SERVICE_URL: s.url, SERVICE_RUNTIME_URL: s.runtimeUrl!, PATH: emptyBin });
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(r.out.data, {
      service: { url: s.url, reachable: true, started_by: 'already-up', health_status_code: 200 },
      runtime: { url: s.runtimeUrl, reachable: true, started_by: 'already-up', ready_status_code: 200 },
      manual_hints: [],
    });
    assert.ok(s.requests.some((q) => q.path === '/health'));
    assert.ok(s.requests.some((q) => q.path === 'runtime:/readyz'));
  });

  it('runtime down without --with-runtime: exit 0, reported, nothing started, no hints', async () => {
    const s = await up({});
    const port = await closedPort();
    const r = await runAdapter(['ensure-running'], {
      SERVICE_URL: s.url,
      SERVICE_RUNTIME_URL: `http://127.0.0.1:${port}`,
      SERVICE_RUNTIME_IMAGE: 'example/runtime:1',
      PATH: binDir,
      FAKE_DOCKER_LOG: log,
    });
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(r.out.data.runtime, { url: `http://127.0.0.1:${port}`, reachable: false, started_by: 'not-started', ready_status_code: 0 });
    assert.deepEqual(r.out.data.manual_hints, []);
    assert.deepEqual(dockerCalls(), []);
  });

  it('--with-runtime and the runtime down, no image: exit 5 with a hint naming SERVICE_RUNTIME_SOURCE', async () => {
    const s = await up({});
    const port = await closedPort();
    const r = await runAdapter(['ensure-running', '-with-runtime'], {
      SERVICE_URL: s.url,
      SERVICE_RUNTIME_URL: `http://127.0.0.1:${port}`,
      SERVICE_RUNTIME_SOURCE: '/src/runtime',
      PATH: emptyBin,
    });
    assert.equal(r.code, 5, r.stdout);
    assert.equal(r.out.data.service.reachable, true);
    assert.equal(r.out.data.runtime.reachable, false);
    assert.equal(r.out.data.manual_hints.length, 1);
    assert.match(r.out.data.manual_hints[0], /start the runtime from its source at \/src\/runtime so that GET http:\/\/127\.0\.0\.1:\d+\/readyz answers/);
    assert.match(r.out.error!.message, /runtime is unreachable/);
  });

  it('service down, no compose directory: exit 4 with a hint', async () => {
    const port = await closedPort();
    const r = await runAdapter(['ensure-running'], { SERVICE_URL: `http://127.0.0.1:${port}`, PATH: emptyBin });
    assert.equal(r.code, 4, r.stdout);
    assert.equal(r.out.data.service.reachable, false);
    assert.equal(r.out.data.service.started_by, 'not-started');
    assert.equal(r.out.data.service.health_status_code, 0);
    assert.match(r.out.data.manual_hints[0], /set SERVICE_COMPOSE_DIR/);
    assert.match(r.out.error!.message, /service is unreachable/);
  });

  it('service answering 503: not reachable, the status code reported, exit 4', async () => {
    const s = await up({});
    s.fault('GET /health', { status: 503, body: 'draining', contentType: 'text/plain' });
    const r = await runAdapter(['ensure-running'], { SERVICE_URL: s.url, PATH: emptyBin });
    assert.equal(r.code, 4, r.stdout);
    assert.equal(r.out.data.service.health_status_code, 503);
    assert.equal(r.out.error!.status_code, 503);
  });

  it('service hanging: the probe is cut by the request timeout, exit 4', async () => {
    const hanging = await startHangingServer();
    try {
      const r = await runAdapter(['ensure-running', '-request-timeout', '200ms'], { SERVICE_URL: hanging.url, PATH: emptyBin });
      assert.equal(r.code, 4, r.stdout);
    } finally {
      await hanging.close();
    }
  });

  it('compose directory but no compose tool on PATH: exit 4, hint says so', async () => {
    const port = await closedPort();
    const r = await runAdapter(['ensure-running'], { SERVICE_URL: `http://127.0.0.1:${port}`, SERVICE_COMPOSE_DIR: composeDir, PATH: emptyBin });
    assert.equal(r.code, 4, r.stdout);
    assert.match(r.out.data.manual_hints[0], /neither "docker compose" nor "docker-compose" is available on PATH/);
  });

  it('docker without its compose plugin and no docker-compose: exit 4, hint says which', async () => {
    const port = await closedPort();
    const r = await runAdapter(['ensure-running'], {
      SERVICE_URL: `http://127.0.0.1:${port}`,
      SERVICE_COMPOSE_DIR: composeDir,
      PATH: binDir,
      FAKE_DOCKER_LOG: log,
      FAKE_DOCKER_NO_COMPOSE: '1',
    });
    assert.equal(r.code, 4, r.stdout);
    assert.deepEqual(dockerCalls(), ['compose version']);
    assert.match(r.out.data.manual_hints[0], /docker is on PATH but "docker compose" does not work \(exit code 1: docker: unknown command: docker compose\) and docker-compose is not on PATH/);
  });

  it('a compose directory that does not exist: exit 4, hint names it', async () => {
    const port = await closedPort();
    const r = await runAdapter(['ensure-running'], { SERVICE_URL: `http://127.0.0.1:${port}`, SERVICE_COMPOSE_DIR: join(dir, 'nope'), PATH: binDir, FAKE_DOCKER_LOG: log });
    assert.equal(r.code, 4, r.stdout);
    assert.match(r.out.data.manual_hints[0], /SERVICE_COMPOSE_DIR=.*nope is not a directory/);
    assert.deepEqual(dockerCalls(), []);
  });

  it('docker compose without a daemon: the start fails, exit 4, the hint carries the reason', async () => {
    const port = await closedPort();
    const r = await runAdapter(['ensure-running'], {
      SERVICE_URL: `http://127.0.0.1:${port}`,
      SERVICE_COMPOSE_DIR: composeDir,
      PATH: binDir,
      FAKE_DOCKER_LOG: log,
      FAKE_DOCKER_FAIL: '1',
    });
    assert.equal(r.code, 4, r.stdout);
    assert.deepEqual(dockerCalls(), ['compose version', 'compose up -d']);
    assert.equal(r.out.data.service.started_by, 'not-started');
    assert.match(r.out.data.manual_hints[0], /up -d" in .* failed \(exit code 1: Cannot connect to the Docker daemon/);
    assert.match(r.stderr, /Cannot connect to the Docker daemon/, "the tool's output goes to stderr");
  });

  it('docker compose that hangs with a child holding its output: stopped at -start-timeout, exit 4 with the JSON, nothing left running', async () => {
    const port = await closedPort();
    const pids = `${log}.pids`;
    const r = await runAdapter(['ensure-running', '-start-timeout', '1s'], {
      SERVICE_URL: `http://127.0.0.1:${port}`,
      SERVICE_COMPOSE_DIR: composeDir,
      PATH: binDir,
      FAKE_DOCKER_LOG: log,
      FAKE_DOCKER_HANG: pids,
    });
    assert.equal(r.code, 4, r.stdout + r.stderr);
    assert.equal(r.out.ok, false);
    assert.equal(r.out.data.service.started_by, 'not-started');
    assert.match(r.out.data.manual_hints[0], /up -d" in .* failed \(did not finish within 1s \(-start-timeout\)\)/);
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.equal(started.length, 2);
    const isAlive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };
    const until = Date.now() + 3000; // the system reaps killed processes a moment later
    while (started.some(isAlive) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.deepEqual(started.filter(isAlive), [], 'the compose process and its child are stopped');
  });

  it('docker compose that starts the service: started_by compose, exit 0', async () => {
    const port = await closedPort();
    const adapter = runAdapter(['ensure-running', '-start-timeout', '10s'], {
      SERVICE_URL: `http://127.0.0.1:${port}`,
      SERVICE_COMPOSE_DIR: composeDir,
      PATH: binDir,
      FAKE_DOCKER_LOG: log,
      FAKE_DOCKER_MARKER: marker,
    });
    await whenFileAppears(marker, 10_000);
    await up({ port });
    const r: Run = await adapter;
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(r.out.data.service, { url: `http://127.0.0.1:${port}`, reachable: true, started_by: 'compose', health_status_code: 200 });
    assert.deepEqual(r.out.data.manual_hints, []);
    assert.deepEqual(dockerCalls(), ['compose version', 'compose up -d']);
  });

  it('--with-runtime and an image: docker maps the runtime URL\'s port to the container port the image listens on (8080 by default, SERVICE_RUNTIME_CONTAINER_PORT)', async () => {
    for (const [containerPort, env] of [['8080', {}], ['9000', { SERVICE_RUNTIME_CONTAINER_PORT: '9000' }]] as const) {
      writeFileSync(log, '');
      const s = await up({});
      const runtimePort = await closedPort();
      // docker "fails": only its command line matters here.
      const r = await runAdapter(['ensure-running', '--with-runtime', '--start-timeout=5s'], {
        SERVICE_URL: s.url,
        SERVICE_RUNTIME_URL: `http://127.0.0.1:${runtimePort}`,
        SERVICE_RUNTIME_IMAGE: 'example/runtime:1',
        PATH: binDir,
        FAKE_DOCKER_LOG: log,
        FAKE_DOCKER_FAIL: '1',
        ...env,
      });
      assert.equal(r.code, 5, r.stdout);
      assert.deepEqual(dockerCalls(), [`run -d --rm -p 127.0.0.1:${runtimePort}:${containerPort} example/runtime:1`]);
    }
  });

  it('--with-runtime and an image: docker run starts it, started_by image, exit 0', async () => {
    const s = await up({});
    const runtimePort = await closedPort();
    const adapter = runAdapter(['ensure-running', '--with-runtime', '--start-timeout=10s'], {
      SERVICE_URL: s.url,
      SERVICE_RUNTIME_URL: `http://127.0.0.1:${runtimePort}`,
      SERVICE_RUNTIME_IMAGE: 'example/runtime:1',
      PATH: binDir,
      FAKE_DOCKER_LOG: log,
      FAKE_DOCKER_MARKER: marker,
    });
    await whenFileAppears(marker, 10_000);
    await up({ runtime: runtimePort });
    const r = await adapter;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.out.data.runtime.started_by, 'image');
    assert.equal(r.out.data.runtime.reachable, true);
    assert.deepEqual(dockerCalls(), [`run -d --rm -p 127.0.0.1:${runtimePort}:8080 example/runtime:1`]);
  });

  it('--with-runtime, image set but docker failing: exit 5, hint with the reason and the source', async () => {
    const s = await up({});
    const runtimePort = await closedPort();
    const r = await runAdapter(['ensure-running', '--with-runtime'], {
      SERVICE_URL: s.url,
      SERVICE_RUNTIME_URL: `http://127.0.0.1:${runtimePort}`,
      SERVICE_RUNTIME_IMAGE: 'example/runtime:1',
      SERVICE_RUNTIME_SOURCE: '/src/runtime',
      PATH: binDir,
      FAKE_DOCKER_LOG: log,
      FAKE_DOCKER_FAIL: '1',
    });
    assert.equal(r.code, 5, r.stdout);
    assert.equal(r.out.data.runtime.started_by, 'not-started');
    assert.match(r.out.data.manual_hints[0], /"docker run -d --rm .* example\/runtime:1" failed \(exit code 1: Cannot connect/);
    assert.match(r.out.data.manual_hints[0], /\/src\/runtime/);
  });

  it('service and runtime both down: exit 4 (the service comes first), hints for both', async () => {
    const [p1, p2] = [await closedPort(), await closedPort()];
    const r = await runAdapter(['ensure-running', '--with-runtime'], {
      SERVICE_URL: `http://127.0.0.1:${p1}`,
      SERVICE_RUNTIME_URL: `http://127.0.0.1:${p2}`,
      PATH: emptyBin,
    });
    assert.equal(r.code, 4, r.stdout);
    assert.equal(r.out.data.manual_hints.length, 2);
  });
});
