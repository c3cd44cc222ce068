/**
 * `sextant --http` in the bench: the service as clients that connect by URL use it (Claude Code,
 * Cursor and VS Code's `"type": "http"`), with no front process per session.
 *
 * - {@linkcode HttpService}: `deno task start`'s command with `--http 127.0.0.1:0 --project ROOT`,
 *   a token of the bench's own in SEXTANT_TOKEN, a service folder of its own (`XDG_RUNTIME_DIR`),
 *   the test set-up's language servers first on PATH.
 * - {@linkcode HttpSession}: an MCP session on it over the SDK's Streamable HTTP client, with the
 *   `call` of bench/scale.ts's `Sextant`, so the same session runs over either transport.
 * @module
 */
import { join } from "node:path";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
import { StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js";
import { Client, withLspPath } from "../../../tests/helpers/mcp.ts";
import { REPO } from "./project.ts";
import {
  callText,
  descendants,
  endLeftovers,
  ensureStartBundle,
  processTree,
  startTaskArgs,
  startTaskEnv,
} from "../scale.ts";

/** Options of {@linkcode HttpService.start}. */
export interface HttpServiceOptions {
  /** Added to the environment, after the start task's own. */
  env?: Record<string, string>;
  /** The checkout whose start task and main.ts run; this one by default. */
  repo?: string;
}

/** `sextant --http` on one project, started by the bench; {@linkcode HttpService.stop} ends it. */
export class HttpService {
  readonly #child: Deno.ChildProcess;
  readonly #runtime: string;
  readonly #output: Promise<void>;

  private constructor(
    child: Deno.ChildProcess,
    runtime: string,
    output: Promise<void>,
    /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
    readonly url: string,
    /** The bearer token the service was given. */
    readonly token: string,
  ) {
    this.#child = child;
    this.#runtime = runtime;
    this.#output = output;
  }

  /** The service's process (the deno process itself: `deno run` has no wrapper). */
  get pid(): number {
    return this.#child.pid;
  }

  /**
   * Start it on `root` and wait for the address it prints. `options.env` is added to the
   * environment, after the start task's own (`MALLOC_ARENA_MAX`); `options.repo` is the
   * checkout whose start task and main.ts run (this one by default).
   */
  static async start(root: string, options: HttpServiceOptions = {}): Promise<HttpService> {
    const { env = {}, repo = REPO } = options;
    if (repo === REPO) await ensureStartBundle();
    const runtime = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bench-http-" }));
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const token = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        ...startTaskArgs(repo),
        "--http",
        "127.0.0.1:0",
        "--project",
        root,
        "--log-level",
        "warn",
      ],
      env: withLspPath({
        ...Deno.env.toObject(),
        ...startTaskEnv(repo),
        XDG_CONFIG_HOME: join(root, ".sextant", "bench-xdg"),
        XDG_RUNTIME_DIR: runtime,
        ...env,
        SEXTANT_TOKEN: token,
      }),
      cwd: REPO,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    let url: string | undefined;
    while (url === undefined) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
      url = /serving MCP at (http:\/\/\S+\/mcp)/.exec(seen)?.[1];
    }
    // What it prints later (warnings) goes on to the bench's stderr, as a stdio Sextant's does.
    const output = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        await Deno.stderr.write(new TextEncoder().encode(r.value));
      }
    })();
    if (url === undefined) {
      await child.status;
      await output;
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
      throw new Error(`sextant --http printed no address; its output:\n${seen}`);
    }
    return new HttpService(child, runtime, output, url, token);
  }

  /** The service's process and every process below it (its language servers). */
  processes(): number[] {
    return descendants(this.pid, processTree());
  }

  /** SIGTERM (it closes its sessions and stops its servers), then whatever is left, by pid. */
  async stop(): Promise<void> {
    const below = this.processes();
    try {
      this.#child.kill("SIGTERM");
    } catch { /* exited */ }
    const exited = await Promise.race([
      this.#child.status.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000)),
    ]);
    await endLeftovers(below, "http", "the service's SIGTERM");
    if (!exited) await this.#child.status;
    await this.#output;
    await Deno.remove(this.#runtime, { recursive: true }).catch(() => {});
  }
}

/** One MCP session on an {@linkcode HttpService}, as a client that connects by URL opens it. */
export class HttpSession {
  private constructor(
    readonly client: Client,
    readonly transport: StreamableHTTPClientTransport,
  ) {}

  /** `initialize` and `initialized` over HTTP: the session exists once this resolves. */
  static async connect(service: HttpService): Promise<HttpSession> {
    const transport = new StreamableHTTPClientTransport(new URL(service.url), {
      requestInit: { headers: { authorization: `Bearer ${service.token}` } },
    });
    const client = new Client({ name: "sextant-bench-http", version: "0" });
    await client.connect(transport);
    return new HttpSession(client, transport);
  }

  /** A tool's text; an error answer throws. */
  call(name: string, args: Record<string, unknown>): Promise<string> {
    return callText(this.client, name, args);
  }

  /** End the session on the service (DELETE), then the client. */
  async close(): Promise<void> {
    await this.transport.terminateSession().catch(() => {});
    await this.client.close();
  }
}
