/**
 * Where a second session's first answer goes, the service warm: a front spawned as a client
 * spawns it, timed stage by stage over raw JSON-RPC lines (no SDK in the measuring process):
 *
 * - `initialize`: spawn → its answer (the deno process's start, the front's modules, connecting,
 *   the hello and the service's session, then MCP's `initialize`);
 * - `tools/list` after `initialized`;
 * - the first `find_referencing_symbols Core`, then a second one in the same session;
 * - a second front that, as the bench's SDK client, calls right after `initialized`: a cheap
 *   `read_file` twice, for what a session's first call adds;
 * - beside them, in the same round: session 1's warm call, the same stages over a connection to
 *   the service made by this process (no front process: the service's own share), `deno run` of
 *   an empty module and the front's `--version` (the runtime's start and main.ts's modules).
 *
 * Several checkouts are measured in alternation (`--repos A,B`), each with a service of its own,
 * so that a before/after comparison shares the machine's load:
 *
 *     git archive HEAD | tar -x -C /tmp/before
 *     deno run -A scripts/profiles/second_session.ts --repos /tmp/before,. --rounds 9
 *
 * `--typescript 7` links TypeScript 7 into the generated project (its own server, `tsc --lsp`).
 * `--http` adds the same stages over Streamable HTTP to a `sextant --http` of each checkout, with
 * a session 1 of its own kept open (plain `fetch`, no SDK): what a client that connects by URL
 * pays instead of a front.
 * @module
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { generatedTree } from "../bench/lib/project.ts";
import { privateServiceEnv } from "../bench/service.ts";
import { HttpService } from "../bench/lib/http_sextant.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON-RPC over newline-framed streams: send a request, wait for its answer. */
class LineClient {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #buffer = "";
  #nextId = 1;

  constructor(readable: ReadableStream<Uint8Array>, writable: WritableStream<Uint8Array>) {
    this.#reader = readable.getReader();
    this.#writer = writable.getWriter();
  }

  async send(message: Record<string, unknown>): Promise<void> {
    await this.#writer.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
  }

  /** The next line, parsed. */
  async line(): Promise<Record<string, unknown>> {
    for (;;) {
      const newline = this.#buffer.indexOf("\n");
      if (newline >= 0) {
        const text = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        return JSON.parse(text);
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("the stream ended");
      this.#buffer += decoder.decode(value, { stream: true });
    }
  }

  async request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    await this.send({ id, method, params });
    for (;;) {
      const message = await this.line();
      if (message.id !== id || message.method !== undefined) continue;
      return checked(method, params, message);
    }
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    this.#reader.releaseLock();
  }
}

/** An answer that is an error, or a call's answer without what it must hold, throws. */
function checked(
  method: string,
  params: unknown,
  message: Record<string, unknown>,
): Record<string, unknown> {
  if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
  const result = message.result as { isError?: boolean; content?: unknown };
  if (result?.isError) throw new Error(`${method}: ${JSON.stringify(result.content)}`);
  // An empty answer would time the wrong work (a tree whose imports do not resolve).
  const expected = EXPECTED[(params as { name?: string }).name ?? ""];
  if (expected && !JSON.stringify(result.content).includes(expected)) {
    throw new Error(`${method}: no ${expected} in ${JSON.stringify(result.content)}`);
  }
  return message;
}

/** What a session is spoken over: JSON-RPC lines, or MCP's Streamable HTTP. */
type Rpc = Pick<LineClient, "request" | "send">;

/**
 * MCP over Streamable HTTP with plain `fetch` (no SDK), as a client that connects by URL speaks
 * to `sextant --http`: each message a POST with the bearer token and, after `initialize`, the
 * session's id; an answer is JSON or one server-sent event.
 */
class HttpClient {
  #session: string | null = null;
  #nextId = 1;

  constructor(readonly url: string, readonly token: string) {}

  #post(message: Record<string, unknown>): Promise<Response> {
    return fetch(this.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${this.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(this.#session === null ? {} : { "mcp-session-id": this.#session }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...message }),
    });
  }

  async send(message: Record<string, unknown>): Promise<void> {
    const response = await this.#post(message);
    await response.body?.cancel();
  }

  async request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const response = await this.#post({ id: this.#nextId++, method, params });
    this.#session ??= response.headers.get("mcp-session-id");
    const text = await response.text();
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status} ${text}`);
    const data = text.startsWith("{")
      ? text
      : text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).join("");
    return checked(method, params, JSON.parse(data));
  }

  /** End the session (DELETE). */
  async close(): Promise<void> {
    if (this.#session === null) return;
    const response = await fetch(this.url, {
      method: "DELETE",
      headers: { authorization: `Bearer ${this.token}`, "mcp-session-id": this.#session },
    });
    await response.body?.cancel();
  }
}

const INITIALIZE = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "second-session-profile", version: "0" },
};
/** A `tools/call`'s params. */
interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

const REFS: Call = {
  name: "find_referencing_symbols",
  arguments: { name_path: "Core", relative_path: "src/core.ts" },
};

/** A cheap call: what a session's first call costs beyond its tool's own work. */
const READ: Call = { name: "read_file", arguments: { relative_path: "src/core.ts" } };
/** What each call's answer must hold. */
const EXPECTED: Record<string, string> = {
  find_referencing_symbols: "src/pkg",
  read_file: "class Core",
};

/** Stage times of one session, ms. */
type Stages = Record<string, number>;

/**
 * initialize → initialized (+ tools/list, as most clients do) → two calls, timed from `start`.
 */
async function session(
  client: Rpc,
  start: number,
  prefix: string,
  list = true,
  call: Call = REFS,
): Promise<Stages> {
  const out: Stages = {};
  await client.request("initialize", INITIALIZE);
  out[`${prefix}initialize`] = performance.now() - start;
  let at = performance.now();
  await client.send({ method: "notifications/initialized" });
  if (list) {
    await client.request("tools/list", {});
    out[`${prefix}tools/list`] = performance.now() - at;
  }
  at = performance.now();
  await client.request("tools/call", call);
  out[`${prefix}first call`] = performance.now() - at;
  out[`${prefix}spawn → first answer`] = performance.now() - start;
  at = performance.now();
  await client.request("tools/call", call);
  out[`${prefix}second call`] = performance.now() - at;
  return out;
}

interface Variant {
  repo: string;
  env: Record<string, string>;
  runtime: string;
  /** Session 1, kept open: the project stays open and its server warm. */
  first: { client: LineClient; child: Deno.ChildProcess };
  /** With `--http`: the variant's `sextant --http`, and a session 1 of its own kept open. */
  http?: { service: HttpService; first: HttpClient };
}

function frontArgs(repo: string, root: string, extra: string[] = []): string[] {
  // As the bench starts fronts (scripts/bench/service.ts).
  return [
    "run",
    "--quiet",
    "-P=sextant",
    "--config",
    join(repo, "deno.json"),
    join(repo, "main.ts"),
    "--project",
    root,
    "--log-level",
    "error",
    ...extra,
  ];
}

function spawnFront(variant: { repo: string; env: Record<string, string> }, root: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: frontArgs(variant.repo, root),
    env: variant.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  return { child, client: new LineClient(child.stdout, child.stdin) };
}

async function closeFront(front: { client: LineClient; child: Deno.ChildProcess }) {
  await front.client.close();
  await front.child.status;
}

/** The stages over a connection of our own to the variant's service: no front process. */
async function direct(variant: Variant, root: string): Promise<Stages> {
  const dir = join(variant.runtime, "sextant");
  const file = [...Deno.readDirSync(dir)].find((e) => e.name.endsWith(".json"))!.name;
  const endpoint = JSON.parse(Deno.readTextFileSync(join(dir, file))) as {
    port: number;
    token: string;
    version: string;
  };
  const start = performance.now();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: endpoint.port });
  // As a front does (service/handshake.ts noDelay): this row is the service's share alone.
  conn.setNoDelay(true);
  const client = new LineClient(conn.readable, conn.writable);
  await client.send({
    sextant: endpoint.version,
    token: endpoint.token,
    op: "session",
    options: {
      command: "serve",
      project: root,
      logLevel: "error",
      noProject: false,
      enableShell: false,
      standalone: false,
      allowRemote: false,
      dryRun: false,
      force: false,
      hooks: false,
      install: false,
      yes: false,
    },
    place: { cwd: root },
  });
  const welcome = await client.line();
  if (welcome.ok !== true) throw new Error(JSON.stringify(welcome));
  const out: Stages = { "direct: connect + hello → welcome": performance.now() - start };
  Object.assign(out, await session(client, performance.now(), "direct: "));
  await client.close();
  try {
    conn.close();
  } catch { /* closed */ }
  return out;
}

/**
 * The stages over Streamable HTTP to the variant's `sextant --http`: no front process, so a new
 * session is `initialize` over HTTP (timed from the first byte sent); once with `tools/list` and
 * the references call, once calling `read_file` right after `initialized`.
 */
async function overHttp(service: HttpService): Promise<Stages> {
  const out: Stages = {};
  const client = new HttpClient(service.url, service.token);
  Object.assign(out, await session(client, performance.now(), "http: "));
  await client.close();
  const unlisted = new HttpClient(service.url, service.token);
  Object.assign(
    out,
    await session(unlisted, performance.now(), "http, no tools/list, read_file: ", false, READ),
  );
  await unlisted.close();
  // No process is spawned: the session starts with the client's first request.
  return Object.fromEntries(
    Object.entries(out).map(([stage, ms]) => [stage.replace("spawn →", "connect →"), ms]),
  );
}

async function timed(args: string[], env: Record<string, string>): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), { args, env, stdout: "null", stderr: "null" })
    .output();
  if (!out.success) throw new Error(`${args.join(" ")} failed`);
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      repos: { type: "string", default: "." },
      files: { type: "string", default: "3000" },
      rounds: { type: "string", default: "7" },
      typescript: { type: "string", default: "5" },
      http: { type: "boolean", default: false },
    },
  });
  const repos = values.repos.split(",").map((r) => resolve(r));
  const tree = await generatedTree(Number(values.files));
  if (values.typescript === "7") {
    // The project's own TypeScript 7: the registry then runs its server, `tsc --lsp`.
    const { linkTypeScript7 } = await import("../../tests/helpers/lsp.ts");
    await linkTypeScript7(tree.root);
  }
  const empty = await Deno.makeTempFile({ suffix: ".ts" });
  const variants: Variant[] = [];
  const samples = new Map<string, Map<string, number[]>>();
  const note = (repo: string, stages: Stages) => {
    const byStage = samples.get(repo) ?? new Map<string, number[]>();
    samples.set(repo, byStage);
    for (const [stage, ms] of Object.entries(stages)) {
      byStage.set(stage, [...(byStage.get(stage) ?? []), ms]);
    }
  };
  const loads: string[] = [];
  try {
    for (const repo of repos) {
      const runtime = await Deno.makeTempDir({ prefix: "sextant-profile-rt-" });
      const env = privateServiceEnv(runtime);
      const first = spawnFront({ repo, env }, tree.root);
      const variant: Variant = { repo, env, runtime, first };
      variants.push(variant);
      await session(first.client, performance.now(), "");
      if (values.http) {
        const service = await HttpService.start(tree.root, {
          repo,
          env: { SEXTANT_LSP_PATH: env.SEXTANT_LSP_PATH! },
        });
        variant.http = { service, first: new HttpClient(service.url, service.token) };
        await session(variant.http.first, performance.now(), "");
      }
      console.error(`${repo}: session 1 open, the server warm`);
    }
    for (let round = 0; round < Number(values.rounds); round++) {
      loads.push(Deno.loadavg().map((l) => l.toFixed(2)).join(" "));
      // Alternate which variant goes first, so that neither always follows the other.
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const stages: Stages = {};
        let at = performance.now();
        await variant.first.client.request("tools/call", REFS);
        stages["session 1: warm call"] = performance.now() - at;
        stages["deno run: an empty module"] = await timed(["run", "--quiet", empty], variant.env);
        stages["deno run: main.ts --version"] = await timed(
          frontArgs(variant.repo, tree.root, ["--version"]),
          variant.env,
        );
        at = performance.now();
        const front = spawnFront(variant, tree.root);
        Object.assign(stages, await session(front.client, at, "front: "));
        await closeFront(front);
        // As the bench's SDK client does, the call right after `initialized`; a cheap one, so
        // that what a session's first call adds shows beside the second.
        at = performance.now();
        const unlisted = spawnFront(variant, tree.root);
        Object.assign(
          stages,
          await session(unlisted.client, at, "front, no tools/list, read_file: ", false, READ),
        );
        await closeFront(unlisted);
        Object.assign(stages, await direct(variant, tree.root));
        if (variant.http) {
          at = performance.now();
          await variant.http.first.request("tools/call", REFS);
          stages["http: session 1's warm call"] = performance.now() - at;
          Object.assign(stages, await overHttp(variant.http.service));
        }
        note(variant.repo, stages);
      }
      console.error(`round ${round + 1} done`);
    }
    console.log(`\nload average per round: ${loads.join(" | ")}\n`);
    const stages = [...samples.get(repos[0]!)!.keys()];
    console.log(`| stage (median of ${values.rounds}, ms) | ${repos.join(" | ")} |`);
    console.log(`|---|${repos.map(() => "---").join("|")}|`);
    for (const stage of stages) {
      const cells = repos.map((repo) => {
        const all = samples.get(repo)!.get(stage)!;
        return `${median(all).toFixed(1)} (${Math.min(...all).toFixed(0)}–${
          Math.max(...all).toFixed(0)
        })`;
      });
      console.log(`| ${stage} | ${cells.join(" | ")} |`);
    }
  } finally {
    for (const variant of variants) {
      await closeFront(variant.first).catch(() => {});
      await variant.http?.first.close().catch(() => {});
      await variant.http?.service.stop();
      await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-config", join(variant.repo, "main.ts"), "service", "stop"],
        env: variant.env,
        stdout: "null",
        stderr: "null",
      }).output();
      await Deno.remove(variant.runtime, { recursive: true }).catch(() => {});
    }
    await Deno.remove(empty).catch(() => {});
    await tree.dispose();
  }
}
