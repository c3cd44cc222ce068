/**
 * A language server spoken to over a bare vscode-jsonrpc connection, with the engine's own
 * initialize parameters and the same documents open: the baseline the bench rows measure the
 * engine against (bench/engine.ts, scale.ts, generations.ts; the profiles).
 * @module
 */
import { Readable, Writable } from "node:stream";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
// The package's Node.js entry, streams and all: the bare client a user's own tool would be.
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "npm:vscode-jsonrpc@10.0.0/node";
import { clientCapabilities } from "../../../src/lsp/capabilities.ts";
import { resolveCommand, type ServerSpec, serverSpecs } from "../../../src/lsp/registry.ts";
import { CORE, CORE_POS } from "./project.ts";

/**
 * A language server (typescript-language-server unless another registry id is given) over a
 * bare vscode-jsonrpc connection: the baseline.
 */
export class RawServer {
  readonly connection: MessageConnection;
  readonly #child: Deno.ChildProcess;
  readonly #root: string;
  readonly #spec: ServerSpec;
  #version = 0;
  readonly open = new Set<string>();

  private constructor(root: string, spec: ServerSpec) {
    this.#root = root;
    this.#spec = spec;
    // The program the engine would start (TypeScript 7's native tsc, not its node script).
    const resolved = resolveCommand(spec, root);
    if ("error" in resolved) throw new Error(resolved.error);
    const command = resolved.command;
    const path = resolved.path;
    this.#child = new Deno.Command(path, {
      args: command.args,
      cwd: root,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
      detached: true,
    }).spawn();
    this.connection = createMessageConnection(
      new StreamMessageReader(Readable.fromWeb(this.#child.stdout as never)),
      new StreamMessageWriter(Writable.fromWeb(this.#child.stdin as never)),
    );
    this.connection.onRequest(
      "workspace/configuration",
      (p: { items?: unknown[] }) => (p.items ?? []).map(() => null),
    );
    this.connection.onRequest("window/workDoneProgress/create", () => null);
    this.connection.onRequest("client/registerCapability", () => null);
    this.connection.onNotification(() => {});
    this.connection.listen();
  }

  /** Spawn and initialize (the same initialize parameters Sextant sends). */
  static async start(root: string, serverId = "typescript"): Promise<RawServer> {
    const spec = serverSpecs(root).find((s) => s.id === serverId);
    if (!spec) throw new Error(`no language server "${serverId}" in the registry`);
    const raw = new RawServer(root, spec);
    const rootUri = pathToFileURL(root).href;
    await raw.connection.sendRequest("initialize", {
      processId: Deno.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "bench" }],
      capabilities: clientCapabilities(),
      initializationOptions: spec.commands[0]!.initializationOptions,
    });
    await raw.connection.sendNotification("initialized", {});
    return raw;
  }

  /** Process id of the server (the leader of its process group). */
  get pid(): number {
    return this.#child.pid;
  }

  uri(rel: string): string {
    return pathToFileURL(join(this.#root, rel)).href;
  }

  async openFile(rel: string): Promise<void> {
    if (this.open.has(rel)) return;
    this.open.add(rel);
    await this.connection.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri: this.uri(rel),
        languageId: this.#spec.languageIds[extname(rel)] ?? this.#spec.languageId,
        version: ++this.#version,
        text: await Deno.readTextFile(join(this.#root, rel)),
      },
    });
  }

  async closeFile(rel: string): Promise<void> {
    if (!this.open.delete(rel)) return;
    await this.connection.sendNotification("textDocument/didClose", {
      textDocument: { uri: this.uri(rel) },
    });
  }

  references(
    rel: string = CORE,
    position: { line: number; character: number } = CORE_POS,
    includeDeclaration = false,
  ): Promise<unknown[]> {
    return this.connection.sendRequest("textDocument/references", {
      textDocument: { uri: this.uri(rel) },
      position,
      context: { includeDeclaration },
    });
  }

  /** Open, documentSymbol, close (a transient open done by hand). */
  async symbols(rel: string, keepOpen = false): Promise<unknown> {
    const wasOpen = this.open.has(rel);
    await this.openFile(rel);
    const result = await this.connection.sendRequest("textDocument/documentSymbol", {
      textDocument: { uri: this.uri(rel) },
    });
    if (!wasOpen && !keepOpen) await this.closeFile(rel);
    return result;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest("shutdown"), delay(2_000)]);
      await this.connection.sendNotification("exit");
    } catch { /* it is going anyway */ }
    await Promise.race([this.#child.status, delay(2_000)]);
    try {
      Deno.kill(-this.#child.pid, "SIGKILL");
    } catch { /* group gone */ }
    await this.#child.status;
    this.connection.dispose();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
