/**
 * The shared per-user service, end to end with real processes: fronts started as users start
 * them (`deno run -P=sextant main.ts`), each talking MCP over stdio, relayed to one service that
 * owns the language servers. Every test runs in a runtime folder of its own and stops its
 * service at the end, checking that nothing outlives it.
 * @module
 */
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, liveInGroup, LSP_CACHE, processAlive, skipUnless } from "../helpers/lsp.ts";
import { LEGACY_TS_WRAPPER_DIR } from "../../scripts/checks/test_setup.ts";
import { SEXTANT_ENV } from "../../src/cli/permission_flags.ts";
import {
  call,
  Client,
  frontArgs,
  REPO_ROOT,
  StdioClientTransport,
  stopServices,
  tempProject,
  withLspPath,
} from "../helpers/mcp.ts";

const tsServer = hasServer("typescript-language-server");

const FILES = {
  // edit is Sextant's own tool, not in the default (Serena 2.1) list.
  ".sextant/project.jsonc": JSON.stringify({ included_tools: ["edit"] }),
  "package.json": '{ "name": "svc", "private": true }\n',
  "tsconfig.json": '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
  "src/shapes.ts": "export class Circle {\n  constructor(public r: number) {}\n}\n",
  "src/use.ts": 'import { Circle } from "./shapes";\n\nexport function make() {\n' +
    "  return new Circle(1);\n}\n",
};

interface Front {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close(): Promise<void>;
}

/** A runtime folder (XDG_RUNTIME_DIR) for one test's service; stops the service when disposed. */
async function runtime() {
  const dir = await Deno.makeTempDir({ prefix: "sextant-rt-" });
  const env = (extra: Record<string, string> = {}) =>
    withLspPath({ ...Deno.env.toObject(), XDG_RUNTIME_DIR: dir, ...extra });
  const sextant = async (...args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: frontArgs(args),
      env: env(),
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  };
  const endpoint = () => {
    const folder = join(dir, "sextant");
    for (const entry of Deno.readDirSync(folder)) {
      if (entry.name.endsWith(".json")) {
        return JSON.parse(Deno.readTextFileSync(join(folder, entry.name))) as {
          pid: number;
          port: number;
        };
      }
    }
    return null;
  };
  return {
    dir,
    env,
    sextant,
    endpoint,
    async [Symbol.asyncDispose]() {
      await stopServices(dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

async function front(
  project: string,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<Front> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: frontArgs(["--project", project, "--log-level", "warn", ...extra]),
    env,
    cwd: REPO_ROOT,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "service-test", version: "0" });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

const REFS = { name_path: "Circle", relative_path: "src/shapes.ts" };

async function waitFor(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test({
  name: "two sessions share one service and one language server; each keeps its own reads",
  ignore: skipUnless(tsServer, "service tests"),
  async fn() {
    await using rt = await runtime();
    await using project = await tempProject(FILES);
    const a = await front(project.root, rt.env());
    const b = await front(project.root, rt.env());
    try {
      const first = await call(a.client, "find_referencing_symbols", REFS);
      assert(!first.isError, first.text);
      assertStringIncludes(first.text, "make");
      const second = await call(b.client, "find_referencing_symbols", REFS);
      assertEquals(second, first);

      // One service, with one TypeScript server for the project, however many sessions.
      const status = await rt.sextant("service", "status");
      assertEquals(status.code, 0, status.stderr);
      assertStringIncludes(status.stdout, "sessions: 2");
      // Its memory is known: read from /proc through the shell under the permission set.
      assertEquals(
        status.stdout.match(/^\s+typescript: pid \d+, \d+ MB$/gm)?.length,
        1,
        status.stdout,
      );

      // A change one session makes is seen by the other's next query.
      const added = await call(a.client, "insert_after_symbol", {
        name_path: "make",
        relative_path: "src/use.ts",
        body: "\nexport function unit() {\n  return new Circle(1);\n}\n",
      });
      assert(!added.isError, added.text);
      const seen = await call(b.client, "find_referencing_symbols", REFS);
      assertStringIncludes(seen.text, '"name_path":"unit"');

      // So is a change on disk, made by neither.
      const use = join(project.root, "src/use.ts");
      await Deno.writeTextFile(
        use,
        (await Deno.readTextFile(use)) + "\nexport const disk = new Circle(2);\n",
      );
      const onDisk = await call(a.client, "find_referencing_symbols", REFS);
      assertStringIncludes(onDisk.text, '"name_path":"disk"');

      // Read-before-edit is per session: A's read does not let B edit lines.
      assert(!(await call(a.client, "read_file", { relative_path: "src/use.ts" })).isError);
      const edit = { file_path: "src/use.ts", old_string: "make()", new_string: "build()" };
      const refused = await call(b.client, "edit", edit);
      assert(refused.isError, "B never read the file");
      assertStringIncludes(refused.text, "read");
      const done = await call(a.client, "edit", edit);
      assert(!done.isError, done.text);
    } finally {
      await a.close();
      await b.close();
    }
  },
});

Deno.test({
  name: "kill -9 of the service: the call in flight fails clearly, the next call works",
  ignore: skipUnless(tsServer, "service tests"),
  async fn() {
    await using rt = await runtime();
    await using project = await tempProject(FILES);
    const a = await front(project.root, rt.env());
    try {
      assert(
        !(await call(a.client, "get_symbols_overview", { relative_path: "src/shapes.ts" }))
          .isError,
      );
      const first = rt.endpoint()!;
      Deno.kill(first.pid, "SIGKILL");
      await waitFor("the service to die", () => !processAlive(first.pid));
      // The front notices, answers what was in flight, starts a new service and goes on.
      let answer = await call(a.client, "get_symbols_overview", { relative_path: "src/shapes.ts" })
        .catch((error) => ({ text: String(error) + a.stderr(), isError: true }));
      assert(!answer.text.includes("Not connected"), answer.text);
      if (answer.isError) {
        answer = await call(a.client, "get_symbols_overview", { relative_path: "src/shapes.ts" });
      }
      assert(!answer.isError, answer.text + a.stderr());
      assertStringIncludes(answer.text, "Circle");
      const second = rt.endpoint()!;
      assert(second.pid !== first.pid, "a new service serves the session");
    } finally {
      await a.close();
    }
  },
});

Deno.test({
  name: "all clients closed: the service and its servers are gone after the idle timeout",
  ignore: skipUnless(tsServer, "service tests"),
  async fn() {
    await using rt = await runtime();
    await using project = await tempProject(FILES);
    const a = await front(project.root, rt.env(), ["--idle-timeout", "1"]);
    assert(!(await call(a.client, "find_referencing_symbols", REFS)).isError);
    const status = await rt.sextant("service", "status");
    const serverPid = Number(/typescript: pid (\d+)/.exec(status.stdout)?.[1]);
    assert(serverPid > 0, status.stdout);
    const service = rt.endpoint()!;
    await a.close();
    await waitFor("the service to exit", () => !processAlive(service.pid));
    await waitFor("the language server to exit", () => liveInGroup(serverPid) <= 0);
    assertEquals(rt.endpoint(), null, "the endpoint file is removed");
  },
});

Deno.test({
  name: "two fronts started at once end up with one service",
  async fn() {
    await using rt = await runtime();
    await using project = await tempProject({ "a.txt": "x\n" });
    const [a, b] = await Promise.all([
      front(project.root, rt.env()),
      front(project.root, rt.env()),
    ]);
    try {
      const status = await rt.sextant("service", "status");
      assertEquals(status.stdout.match(/^sextant service /gm)?.length, 1, status.stdout);
      assertStringIncludes(status.stdout, "sessions: 2");
    } finally {
      await a.close();
      await b.close();
    }
  },
});

Deno.test({
  name: "the front starts the service with Sextant's memory settings in its environment",
  ignore: skipUnless(Deno.build.os === "linux", "reading another process's environment"),
  async fn() {
    await using rt = await runtime();
    await using project = await tempProject({ "a.txt": "x\n" });
    const a = await front(project.root, rt.env());
    try {
      const environ = Deno.readTextFileSync(`/proc/${rt.endpoint()!.pid}/environ`).split("\0");
      for (const [name, value] of Object.entries(SEXTANT_ENV)) {
        assert(environ.includes(`${name}=${value}`), `${name}=${value} in the service's env`);
      }
      assert(Object.keys(SEXTANT_ENV).length > 0);
    } finally {
      await a.close();
    }
  },
});

Deno.test("a service folder open to others is refused with a clear message", async () => {
  await using rt = await runtime();
  await using project = await tempProject({ "a.txt": "x\n" });
  await Deno.mkdir(join(rt.dir, "sextant"), { mode: 0o755 });
  Deno.chmodSync(join(rt.dir, "sextant"), 0o755);
  const status = await rt.sextant("service", "status");
  assert(status.code !== 0);
  assertStringIncludes(status.stderr, "is open to other users (mode 755)");
  assertStringIncludes(status.stderr, "chmod 700");
  // A session still works: it is served on its own, and says why.
  const a = await front(project.root, rt.env());
  try {
    assertEquals(await call(a.client, "read_file", { relative_path: "a.txt" }), {
      text: "x\n",
      isError: false,
    });
    assertStringIncludes(a.stderr(), "is open to other users");
  } finally {
    await a.close();
  }
  assertEquals(rt.endpoint(), null, "no service was started in the unsafe folder");
});

/** Children of a process (Linux `/proc`), with their command lines. */
function childrenOf(pid: number): Array<{ pid: number; args: string }> {
  const out: Array<{ pid: number; args: string }> = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== pid) continue;
      const args = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0").join(" ");
      out.push({ pid: Number(entry.name), args });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** typescript-language-server 4 lives on when tsserver dies (scripts/checks/test_setup.ts installs it). */
const legacyWrapper = hasServer("typescript-language-server") &&
  existsSync(join(LEGACY_TS_WRAPPER_DIR, "node_modules", ".bin", "typescript-language-server"));

for (
  const wrapper of [
    { label: "typescript-language-server 6 (exits)", env: {}, available: tsServer },
    {
      label: "typescript-language-server 4 (lives on)",
      env: { SEXTANT_LSP_PATH: `${LEGACY_TS_WRAPPER_DIR}${delimiter}${LSP_CACHE}` },
      available: legacyWrapper,
    },
  ]
) {
  Deno.test({
    name: `kill -9 of tsserver alone under ${wrapper.label}: the next calls answer in full`,
    ignore: skipUnless(wrapper.available && Deno.build.os === "linux", wrapper.label),
    async fn() {
      await using rt = await runtime();
      await using project = await tempProject(FILES);
      const a = await front(project.root, rt.env(wrapper.env));
      const b = await front(project.root, rt.env(wrapper.env));
      try {
        const first = await call(a.client, "find_referencing_symbols", REFS);
        assert(!first.isError, first.text);
        assertStringIncludes(first.text, "make");
        const status = await rt.sextant("service", "status");
        const serverPid = Number(/typescript: pid (\d+)/.exec(status.stdout)?.[1]);
        assert(serverPid > 0, status.stdout);
        const tsservers = childrenOf(serverPid).filter((c) => c.args.includes("tsserver"));
        assert(tsservers.length > 0, `no tsserver under ${serverPid}`);
        for (const child of tsservers) Deno.kill(child.pid, "SIGKILL");
        await waitFor("tsserver to die", () => tsservers.every((c) => !processAlive(c.pid)));
        for (const session of [b, a]) {
          const again = await call(session.client, "find_referencing_symbols", REFS);
          assertEquals(again, first);
        }
      } finally {
        await a.close();
        await b.close();
      }
    },
  });
}
