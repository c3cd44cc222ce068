/**
 * Diagnostics asked for rather than waited for (ARCHITECTURE.md §5 rule 3): LSP pull diagnostics
 * (`textDocument/diagnostic`) where the server offers them, and tsserver's synchronous
 * diagnostics commands through typescript-language-server, which only pushes diagnostics without
 * versions and in several batches.
 * @module
 */
import type { Diagnostic, DiagnosticSeverity, DiagnosticTag } from "../deps.ts";
import { ResponseError } from "./jsonrpc.ts";

/** LSP 3.17's `ServerCancelled`: the server cancelled the request itself (not ready, or busy). */
const SERVER_CANCELLED = -32802;
/** LSP's `ContentModified`: the document changed while the server computed the answer. */
const CONTENT_MODIFIED = -32801;
/** How often a cancelled pull is asked again before its error is the answer. */
export const PULL_RETRIES = 4;
/** The first wait before asking again (ms); it doubles each time. */
const RETRY_DELAY_MS = 50;

/** Sends one request to the server (already synced and ready). */
export type Send = <R>(method: string, params: unknown) => Promise<R>;

interface PullReport {
  kind: "full" | "unchanged";
  resultId?: string;
  items?: Diagnostic[];
}

/**
 * Pull diagnostics with `textDocument/diagnostic`, reusing the last report when "unchanged"; an
 * "unchanged" with no earlier report is an error.
 */
export class PullDiagnostics {
  readonly #last = new Map<string, { resultId: string | undefined; items: Diagnostic[] }>();

  async pull(send: Send, uri: string, delay = wait): Promise<Diagnostic[]> {
    const previous = this.#last.get(uri);
    const params = {
      textDocument: { uri },
      ...(previous?.resultId ? { previousResultId: previous.resultId } : {}),
    };
    let report: PullReport | null;
    for (let attempt = 0;; attempt++) {
      try {
        report = await send<PullReport | null>("textDocument/diagnostic", params);
        break;
      } catch (error) {
        // rust-analyzer cancels a pull while it is still loading the workspace or the file
        // changed under it; the protocol says to ask again unless the server says not to.
        if (attempt >= PULL_RETRIES || !askAgain(error)) throw error;
        await delay(RETRY_DELAY_MS * 2 ** attempt);
      }
    }
    if (report?.kind === "unchanged") {
      if (previous) return previous.items;
      // Nothing to be unchanged from: the server has not checked the file (pyright answers
      // so for a file it does not know yet). Never read as "no diagnostics".
      throw new Error(`The server gave no diagnostics for ${uri} (it answered "unchanged").`);
    }
    const items = report?.items ?? [];
    this.#last.set(uri, { resultId: report?.resultId, items });
    return items;
  }

  /** Forget every previous report (our own edits), or those of one document (it was closed). */
  forget(uri?: string): void {
    if (uri === undefined) this.#last.clear();
    else this.#last.delete(uri);
  }
}

/** Whether a failed pull may be asked again: the server cancelled it and did not say not to. */
function askAgain(error: unknown): boolean {
  if (!(error instanceof ResponseError)) return false;
  if (error.code === CONTENT_MODIFIED) return true;
  if (error.code !== SERVER_CANCELLED) return false;
  const data = error.data as { retriggerRequest?: unknown } | undefined;
  return data?.retriggerRequest !== false;
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a server offers pull diagnostics, statically or by dynamic registration. */
export function supportsPull(
  capabilities: Record<string, unknown>,
  registeredMethods: Iterable<string>,
): boolean {
  if (capabilities.diagnosticProvider) return true;
  for (const method of registeredMethods) if (method === "textDocument/diagnostic") return true;
  return false;
}

interface TsLocation {
  line: number;
  offset: number;
}
interface TsDiagnostic {
  start: TsLocation;
  end: TsLocation;
  text: string;
  code?: number;
  category?: string;
  source?: string;
  reportsUnnecessary?: unknown;
  reportsDeprecated?: unknown;
}

const TS_COMMANDS = [
  "syntacticDiagnosticsSync",
  "semanticDiagnosticsSync",
  "suggestionDiagnosticsSync",
] as const;

/**
 * Ask tsserver (via typescript-language-server's `typescript.tsserverRequest` command) for a
 * file's diagnostics synchronously: exactly those of the content we sent, no waiting. The
 * requests go out together (tsserver answers them in order, without a round trip between).
 * `errorsOnly` skips the suggestion pass, which never yields an error.
 */
export async function pullTsserverDiagnostics(
  send: Send,
  uri: string,
  options: { errorsOnly?: boolean } = {},
): Promise<Diagnostic[]> {
  const commands = options.errorsOnly ? TS_COMMANDS.slice(0, 2) : TS_COMMANDS;
  const answers = await Promise.all(
    commands.map((command) =>
      send<{ body?: TsDiagnostic[] } | TsDiagnostic[] | null>(
        "workspace/executeCommand",
        { command: "typescript.tsserverRequest", arguments: [command, { file: uri }] },
      )
    ),
  );
  const out: Diagnostic[] = [];
  for (const [i, response] of answers.entries()) {
    const list = Array.isArray(response) ? response : response?.body ?? [];
    for (const d of list) out.push(fromTsDiagnostic(d, commands[i]!));
  }
  return out;
}

function fromTsDiagnostic(d: TsDiagnostic, command: string): Diagnostic {
  const severity: DiagnosticSeverity = d.category === "error"
    ? 1
    : d.category === "warning"
    ? 2
    : d.category === "suggestion" || command === "suggestionDiagnosticsSync"
    ? 4
    : 3;
  const tags: DiagnosticTag[] = [];
  if (d.reportsUnnecessary) tags.push(1);
  if (d.reportsDeprecated) tags.push(2);
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    severity,
    ...(d.code !== undefined ? { code: d.code } : {}),
    source: d.source ?? "typescript",
    message: d.text,
    ...(tags.length ? { tags } : {}),
  };
}
