/**
 * Running Sextant straight from a URL: `deno run <flags> http://host/main.ts`. The checkout is
 * served on a loopback port by a small static file server, so the module graph must resolve
 * without our deno.json (no import map, no lockfile).
 */
import { extname, join, normalize, resolve, sep } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  call,
  Client,
  REPO_ROOT,
  serviceRuntime,
  StdioClientTransport,
  tempProject,
  withLspPath,
} from "../helpers/mcp.ts";
import { sextantFlags } from "../../scripts/release/permissions.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".ts": "application/typescript",
  ".js": "application/javascript",
  ".json": "application/json",
};

/** Serve the checkout read-only on 127.0.0.1; requests outside it are 404. */
function serveCheckout(): Deno.HttpServer<Deno.NetAddr> & { requests: string[] } {
  const root = resolve(REPO_ROOT);
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    requests.push(path);
    const file = normalize(join(root, path));
    if (!file.startsWith(root + sep)) return new Response("not found", { status: 404 });
    try {
      const body = await Deno.readFile(file);
      const type = CONTENT_TYPES[extname(file)] ?? "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return Object.assign(server, { requests });
}

/** Flags as docs/install.md's `deno run` snippet has them: the set's, and no configuration file. */
function urlRunArgs(url: string, args: string[]): string[] {
  return ["run", "--no-config", ...sextantFlags(), url, ...args];
}

Deno.test("run from a URL: initialize and a tool call over stdio", async () => {
  await using project = await tempProject({ "hello.txt": "served\n" });
  await using runtime = await serviceRuntime();
  const http = serveCheckout();
  try {
    const url = `http://127.0.0.1:${http.addr.port}/main.ts`;
    const started = performance.now();
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: urlRunArgs(url, ["--project", project.root, "--log-level", "error"]),
      // Not the checkout: no deno.json is found from here.
      cwd: project.root,
      env: {
        ...Deno.env.toObject(),
        XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
        ...runtime.env,
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "url-run-test", version: "0" });
    await client.connect(transport);
    const initializeMs = performance.now() - started;
    try {
      assertEquals(client.getServerVersion()?.name, "sextant");
      assertEquals(await call(client, "read_file", { relative_path: "hello.txt" }), {
        text: "served\n",
        isError: false,
      });
    } finally {
      await client.close();
    }
    console.log(`url run: initialize answered ${initializeMs.toFixed(0)} ms after spawn`);
    // The graph really came over HTTP, and never asked for a configuration file.
    assert(http.requests.includes("/main.ts"));
    assert(http.requests.includes("/src/deps.ts"));
    assert(!http.requests.some((p) => /deno\.jsonc?$|import_map|deno\.lock/.test(p)));
  } finally {
    await http.shutdown();
  }
});

Deno.test("run from a URL: only the entry point's host is imported; Sextant's net is loopback only", async () => {
  await using project = await tempProject({ "a.ts": "export const a = 1;\n" });
  const http = serveCheckout();
  try {
    const url = `http://127.0.0.1:${http.addr.port}/main.ts`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: urlRunArgs(url, ["doctor", "--project", project.root]),
      cwd: project.root,
      // Servers found through SEXTANT_LSP_PATH (set by other test modules in this process) must
      // also be on PATH, as the run allow-list resolves names there.
      env: withLspPath({
        ...Deno.env.toObject(),
        XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
      }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    // Doctor exits 1 when a server the project needs is missing (none may be installed where this
    // module runs alone); what matters here is that it ran, under the permissions it reports.
    assert(out.code === 0 || out.code === 1, text + new TextDecoder().decode(out.stderr));
    // Its summary names a failing exit code only.
    if (out.code === 1) assertStringIncludes(text, "(exit code 1)");
    else assertStringIncludes(text, "summary: ");
    assertStringIncludes(text, "permission net: loopback only");
    assertStringIncludes(text, "permission ffi: not granted");
    assertStringIncludes(text, "permission run: limited");
  } finally {
    await http.shutdown();
  }
});

Deno.test("every local import of the entry point's graph is relative (no import-map keys)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--no-config", "--json", join(REPO_ROOT, "main.ts")],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: Array<{ specifier: string; error?: string }>;
  };
  const errors = info.modules.filter((m) => m.error).map((m) => `${m.specifier}: ${m.error}`);
  assertEquals(errors, []);
  const kinds = new Set(info.modules.map((m) => m.specifier.split(":")[0]));
  for (const kind of kinds) assert(["file", "npm", "node"].includes(kind!), `import kind ${kind}`);
});
