/**
 * Diagnostics asked for rather than waited for (ARCHITECTURE.md §5 rule 3): LSP pull diagnostics
 * (`textDocument/diagnostic`) where the server offers them, and tsserver's synchronous
 * diagnostics commands through typescript-language-server, which only pushes diagnostics without
 * versions and in several batches.
 * @module
 */
import type { Diagnostic, DiagnosticSeverity, DiagnosticTag } from "../deps.ts";

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

  async pull(send: Send, uri: string): Promise<Diagnostic[]> {
    const previous = this.#last.get(uri);
    const report = await send<PullReport | null>("textDocument/diagnostic", {
      textDocument: { uri },
      ...(previous?.resultId ? { previousResultId: previous.resultId } : {}),
    });
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
