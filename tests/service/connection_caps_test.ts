/**
 * The service's door under a flood of connections that never show a token, with real processes:
 * the service runs with few file descriptors (`ulimit -n`), so running out of them is cheap to
 * reach. The caps follow the limit, so connections never take every descriptor (Deno 2.9 can
 * panic when it runs out); past the cap of unauthenticated connections the oldest are closed, so
 * a real front still gets in while the flood goes on, and the service stays up; the same for a
 * flood from user nobody (as root). Linux only (the limit is set with `sh -c 'ulimit -n'`).
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  call,
  connectFront,
  frontArgs,
  REPO_ROOT,
  serviceRuntime,
  tempProject,
} from "../helpers/mcp.ts";

const skip = Deno.build.os !== "linux";
if (skip) {
  console.log(
    "connection caps test skipped: it sets the descriptor limit with sh's ulimit (Linux)",
  );
}

interface Endpoint {
  pid: number;
  port: number;
}

/** The endpoint file of the runtime folder, once the service has written it. */
async function waitForEndpoint(runtime: string, service: Deno.ChildProcess): Promise<Endpoint> {
  const folder = join(runtime, "sextant");
  let exited = false;
  service.status.then(() => exited = true);
  while (!exited) {
    try {
      for (const entry of Deno.readDirSync(folder)) {
        if (entry.name.endsWith(".json")) {
          return JSON.parse(Deno.readTextFileSync(join(folder, entry.name)));
        }
      }
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the service exited before it wrote its endpoint");
}

/** `sextant service run` with at most `limit` file descriptors. */
function serviceWithLimit(limit: number, env: Record<string, string>): Deno.ChildProcess {
  return new Deno.Command("sh", {
    args: [
      "-c",
      `ulimit -n ${limit} && exec "$0" "$@"`,
      Deno.execPath(),
      ...frontArgs(["service", "run", "--log-level", "warn"]),
    ],
    env,
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

/** Open `count` connections that say nothing; connections the kernel refuses are left out. */
async function silentConnections(port: number, count: number): Promise<Deno.Conn[]> {
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < count; i++) {
    try {
      conns.push(await Deno.connect({ hostname: "127.0.0.1", port }));
    } catch {
      // the listen queue is full, or the service is gone: checked by the caller
    }
  }
  return conns;
}

/** Resolves when the service has closed `conn` (its read ends). */
async function closedByService(conn: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(64);
  try {
    while ((await conn.read(buffer)) !== null) { /* a refusal's line, if any */ }
  } catch {
    // reset: closed as well
  }
}

function closeAll(conns: Deno.Conn[]): void {
  for (const conn of conns) {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

for (
  const { name, limit, flood } of [
    {
      // 28 descriptors are in use when idle: a few dozen connections would exhaust them.
      name: "with few descriptors, a flood never exhausts them and the service stays up",
      limit: 48,
      flood: 300,
    },
    {
      name: "past the cap of unauthenticated connections the oldest go, and a front gets in",
      limit: 256,
      flood: 1500,
    },
  ]
) {
  Deno.test({
    name: `service door: ${name}`,
    ignore: skip,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      await using rt = await serviceRuntime();
      await using project = await tempProject({ "a.txt": "a\n" });
      const env = {
        ...Deno.env.toObject(),
        ...rt.env,
        XDG_CONFIG_HOME: join(rt.dir, "xdg"),
      };
      const service = serviceWithLimit(limit, env);
      let exitCode: number | null = null;
      service.status.then((status) => exitCode = status.code);
      try {
        const { pid, port } = await waitForEndpoint(rt.dir, service);
        const flooding = await silentConnections(port, flood);
        assert(flooding.length > 0, "no connection reached the service");
        // Every flood connection is closed by the service in the end (refused, turned away at the
        // cap, or past its wait for a hello) while the service lives on.
        if (limit < 100) {
          await Promise.all(flooding.map(closedByService));
        }
        const client = await connectFront(project.root, env, { name: "caps-test" });
        try {
          const listed = await call(client, "list_dir", { relative_path: ".", recursive: false });
          assert(!listed.isError, listed.text);
          assert(listed.text.includes("a.txt"), listed.text);
        } finally {
          await client.close();
          closeAll(flooding);
        }
        assertEquals(exitCode, null, "the service exited");
        // The front reached the service under test, not a new one it started.
        assertEquals(pid, service.pid);
        assertEquals((await waitForEndpoint(rt.dir, service)).pid, pid);
      } finally {
        if (exitCode === null) {
          try {
            service.kill("SIGTERM");
          } catch { /* gone */ }
        }
        await service.status;
      }
    },
  });
}

/** A Python that user nobody can run (a user's own, under /root, is closed to it). */
const SYSTEM_PYTHON = "/usr/bin/python3";
const asRoot = Deno.build.os === "linux" && Deno.uid() === 0 &&
  (() => {
    try {
      return Deno.statSync(SYSTEM_PYTHON).isFile;
    } catch {
      return false;
    }
  })();
if (!asRoot) {
  console.log(
    "connection caps test (another user) skipped: it needs Linux, root (to run as nobody) " +
      `and ${SYSTEM_PYTHON}`,
  );
}

/**
 * `count` silent connections held open by user nobody (Python under setpriv), until stdin closes.
 */
async function floodAsNobody(port: number, count: number): Promise<() => Promise<void>> {
  const script = [
    "import socket, sys",
    "held = []",
    `for _ in range(${count}):`,
    "    try:",
    `        held.append(socket.create_connection(("127.0.0.1", ${port})))`,
    "    except OSError:",
    "        pass",
    "print(len(held), flush=True)",
    "sys.stdin.read()",
  ].join("\n");
  const child = new Deno.Command("setpriv", {
    args: ["--reuid=nobody", "--regid=nogroup", "--clear-groups", SYSTEM_PYTHON, "-c", script],
    cwd: "/",
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the flood as nobody ended early: ${seen}`);
    seen += value;
  }
  assert(Number(seen.trim()) > 0, `nobody opened no connection: ${seen}`);
  return async () => {
    await child.stdin.close().catch(() => {});
    await child.status;
    await reader.cancel().catch(() => {});
  };
}

Deno.test({
  name: "service door: a flood from another user (nobody) neither ends the service nor locks it",
  ignore: !asRoot,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using rt = await serviceRuntime();
    await using project = await tempProject({ "a.txt": "a\n" });
    const env = { ...Deno.env.toObject(), ...rt.env, XDG_CONFIG_HOME: join(rt.dir, "xdg") };
    const service = serviceWithLimit(256, env);
    let exitCode: number | null = null;
    service.status.then((status) => exitCode = status.code);
    try {
      const { pid, port } = await waitForEndpoint(rt.dir, service);
      const release = await floodAsNobody(port, 1500);
      try {
        const client = await connectFront(project.root, env, { name: "caps-test" });
        try {
          const listed = await call(client, "list_dir", { relative_path: ".", recursive: false });
          assert(!listed.isError, listed.text);
        } finally {
          await client.close();
        }
      } finally {
        await release();
      }
      assertEquals(exitCode, null, "the service exited");
      assertEquals((await waitForEndpoint(rt.dir, service)).pid, pid);
    } finally {
      if (exitCode === null) {
        try {
          service.kill("SIGTERM");
        } catch { /* gone */ }
      }
      await service.status;
    }
  },
});
