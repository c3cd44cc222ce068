/**
 * JSON-RPC to language servers, pinned apart from the other third-party imports: the project's
 * server is started ahead (lsp/prestart.ts) before the session's modules load, and its client
 * loads only this package. Through deps.ts it also initialised every other package deps.ts
 * imports (zod, ignore, picomatch, jsonc-parser, ...) before the server was spawned.
 *
 * The package's runtime-neutral entry. Its `/node` entry loads node:net, node:crypto, node:fs and
 * node:util when it loads (~25 ms of Deno's Node.js layer at every serving process's start);
 * Sextant frames messages itself (lsp/framing.ts) and gives the connection its runtime
 * (lsp/jsonrpc.ts).
 * @module
 */
export {
  AbstractMessageBuffer,
  AbstractMessageReader,
  AbstractMessageWriter,
  CancellationTokenSource,
  createMessageConnection,
  RAL,
  ResponseError,
} from "npm:vscode-jsonrpc@10.0.0";
export type {
  DataCallback,
  Disposable,
  Message,
  MessageConnection,
  MessageReader,
  MessageWriter,
} from "npm:vscode-jsonrpc@10.0.0";
