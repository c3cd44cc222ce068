/**
 * The errors an edit introduced, returned with the edit. Every editing tool (marker `can-edit`)
 * runs under {@linkcode reportingNewDiagnostics}; the write path calls
 * {@linkcode watchDiagnostics} around each commit. Before the files are written, the running
 * language servers are asked for the errors of the changed files and of the files importing
 * them; afterwards again, for the versions just sent (no sleeps). Errors are compared by
 * message and the text they point at, never by line, so code that only moved is not "new".
 * The tool's answer keeps its first line (Serena's `OK`) and gains one line:
 * `Introduced 2 errors: src/b.ts:2 Type 'string' is not assignable to type 'number'. ...`.
 *
 * Bounded: only servers already running are asked (an edit never starts one), at most
 * {@linkcode MAX_FILES} files, and the whole check gives up after {@linkcode BUDGET_MS}.
 * Switched off with `report_new_diagnostics: false`.
 * @module
 */
import { relative } from "node:path";
import { log } from "../../log.ts";
import type { ManagedServer } from "../../lsp/server.ts";
import type { LspDiagnostic } from "../../lsp/types.ts";
import type { ToolAnswer, ToolContext } from "../tool.ts";
import { findImporters, importsChanged } from "./importers.ts";

/** Files checked per edit: the changed ones first, then their importers. */
const MAX_FILES = 12;
/** Time for the whole check (before and after). */
const BUDGET_MS = 8_000;
/** Errors listed in the answer. */
const MAX_SHOWN = 10;
/** How long the errors found after an edit serve as the "before" of the next one. */
const REUSE_MS = 60_000;

/** Counts the writes through the write path: errors found before a later write are stale. */
let generation = 0;

/** The write path committed a change (whatever tool made it). */
export function noteWrite(): void {
  generation++;
}

/** Per project root: the errors last found per file, with the text and generation they are for. */
const checked = new Map<
  string,
  Map<string, { text: string; generation: number; at: number; errors: ErrorSet }>
>();

function lastChecked(root: string) {
  let files = checked.get(root);
  if (!files) checked.set(root, files = new Map());
  if (files.size > 500) files.clear();
  return files;
}

/** One error the edit introduced. */
export interface NewError {
  relPath: string;
  /** 1-based line. */
  line: number;
  message: string;
}

const collectors = new WeakMap<ToolContext, NewError[]>();

type Handler<A> = (args: A, ctx: ToolContext) => Promise<ToolAnswer>;

/**
 * Wrap an editing tool's handler: the writes it makes are checked for new errors, which are
 * appended to its answer (nothing when there are none, or when `report_new_diagnostics` is off).
 */
export function reportingNewDiagnostics<A>(handler: Handler<A>): Handler<A> {
  return async (args, ctx) => {
    const settings = ctx.session.project?.settings ?? ctx.session.settings;
    if (settings.report_new_diagnostics === false) return await handler(args, ctx);
    const found: NewError[] = [];
    const inner: ToolContext = { ...ctx };
    collectors.set(inner, found);
    const answer = await handler(args, inner);
    return found.length === 0 ? answer : withReport(answer, formatNewErrors(found));
  };
}

/** `Introduced 2 errors: a.ts:2 message. b.ts:5 message.` (the first {@linkcode MAX_SHOWN}). */
export function formatNewErrors(errors: readonly NewError[]): string {
  const shown = errors.slice(0, MAX_SHOWN).map((e) =>
    `${e.relPath}:${e.line} ${e.message.split("\n")[0]!.replace(/\.$/, "")}.`
  );
  const more = errors.length > MAX_SHOWN ? ` … and ${errors.length - MAX_SHOWN} more.` : "";
  const noun = errors.length === 1 ? "error" : "errors";
  return `Introduced ${errors.length} ${noun}: ${shown.join(" ")}${more}`;
}

/** The answer with the report as its last line (a JSON object answer gets a `new_errors` key). */
function withReport(answer: ToolAnswer, report: string): ToolAnswer {
  const add = (text: string): string => {
    if (text.trimStart().startsWith("{")) {
      try {
        const value = JSON.parse(text);
        if (value && typeof value === "object" && !Array.isArray(value)) {
          return JSON.stringify({ ...value, new_errors: report });
        }
      } catch { /* not JSON after all */ }
    }
    return `${text}\n${report}`;
  };
  if (typeof answer === "string") return add(answer);
  return {
    text: add(answer.text),
    ...(answer.shorter
      ? { shorter: answer.shorter.map((s) => ({ note: s.note, text: () => add(s.text()) })) }
      : {}),
  };
}

/** What the write path tells the watch: real paths changed, and moves. */
export interface WatchedWrite {
  changed: ReadonlyArray<{ real: string; existedBefore: boolean }>;
  moves: ReadonlyArray<{ from: string; to: string }>;
}

/** Errors of one file, keyed by message and the text they point at. */
type ErrorSet = Map<string, { line: number; message: string; count: number }>;

/** A check around one commit: `before()` ahead of the write, `after()` once it landed. */
export interface DiagnosticsWatch {
  after(): Promise<void>;
}

/**
 * Take the errors of the files a write touches (and their importers) now, when the tool runs
 * under {@linkcode reportingNewDiagnostics} and a server handling them runs; null otherwise.
 */
export async function watchDiagnostics(
  ctx: ToolContext,
  write: WatchedWrite,
): Promise<DiagnosticsWatch | null> {
  const found = collectors.get(ctx);
  if (!found) return null;
  const started = performance.now();
  const deadline = started + BUDGET_MS;
  try {
    const project = ctx.project();
    const pool = ctx.session.services(project).pool;
    const running = new Map<string, ManagedServer>();
    for (const server of pool.running()) if (server.pid !== null) running.set(server.id, server);
    if (running.size === 0) return null;
    const root = project.root;
    const rel = (real: string) => relative(root, real).split("\\").join("/");
    const serverOf = (relPath: string) => running.get(pool.serverIdFor(relPath) ?? "");
    const movedTo = (relPath: string): string => {
      for (const m of write.moves) {
        const from = rel(m.from);
        if (relPath === from) return rel(m.to);
        if (relPath.startsWith(from + "/")) return rel(m.to) + relPath.slice(from.length);
      }
      return relPath;
    };
    // The files to check, as [path before, path after]; null: it does not exist then.
    const files: Array<[string | null, string | null]> = [];
    const seen = new Set<string>();
    const add = (before: string | null, after: string | null) => {
      const key = after ?? before ?? "";
      if (seen.has(key) || files.length >= MAX_FILES) return;
      if (!serverOf(key)) return;
      seen.add(key);
      files.push([before, after]);
    };
    for (const c of write.changed) {
      const r = rel(c.real);
      if (r.startsWith("..")) continue;
      add(c.existedBefore ? r : null, movedTo(r));
    }
    const targets = [
      ...write.changed.map((c) => ({ relPath: rel(c.real), folder: false })),
      ...write.moves.map((m) => ({ relPath: rel(m.from), folder: false })),
    ].filter((t) => !t.relPath.startsWith(".."));
    if (targets.length > 0 && files.length < MAX_FILES) {
      const importers = await findImporters(project, targets, (r) => serverOf(r) !== undefined, {
        limit: MAX_FILES * 4,
        signal: ctx.signal,
      });
      for (const site of importers) add(site.relPath, movedTo(site.relPath));
    }
    if (files.length === 0) return null;
    const known = lastChecked(project.root);
    const errorsOf = async (relPath: string, reuse: boolean): Promise<ErrorSet | null> => {
      if (performance.now() > deadline) return null;
      const server = serverOf(relPath);
      if (!server) return null;
      try {
        const text = await Deno.readTextFile(project.absolute(relPath)).catch(() => "");
        // The errors found after the previous edit, when nothing was written since.
        const last = known.get(relPath);
        if (
          reuse && last && last.text === text && last.generation === generation &&
          Date.now() - last.at < REUSE_MS
        ) {
          return last.errors;
        }
        const diagnostics = await server.diagnostics(relPath, {
          signal: ctx.signal,
          transient: true,
        });
        const errors = errorSet(diagnostics, text);
        known.set(relPath, { text, generation, at: Date.now(), errors });
        return errors;
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        log.debug(`new diagnostics: ${relPath}: ${String(error)}`);
        return null;
      }
    };
    const before = new Map<string, ErrorSet | null>();
    for (const [b, a] of files) {
      before.set(a ?? b!, b === null ? new Map() : await errorsOf(b, true));
    }
    log.debug(
      `new diagnostics: ${files.length} file(s) before in ${
        Math.round(performance.now() - started)
      } ms`,
    );
    return {
      async after() {
        const afterStart = performance.now();
        importsChanged(
          project,
          write.changed.map((c) => movedTo(rel(c.real))).filter((r) => !r.startsWith("..")),
          write.moves.length > 0,
        );
        for (const [, a] of files) {
          if (a === null) continue;
          const old = before.get(a);
          if (old === null || old === undefined) continue;
          const now = await errorsOf(a, false);
          if (now === null) continue;
          for (const [key, e] of now) {
            const extra = e.count - (old.get(key)?.count ?? 0);
            for (let i = 0; i < extra; i++) {
              found.push({ relPath: a, line: e.line, message: e.message });
            }
          }
        }
        log.debug(
          `new diagnostics: after in ${Math.round(performance.now() - afterStart)} ms, ` +
            `${Math.round(performance.now() - started)} ms in all`,
        );
      },
    };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    log.debug(`new diagnostics skipped: ${String(error)}`);
    return null;
  }
}

/** Errors (severity 1) keyed by message and the text of their range. */
function errorSet(diagnostics: readonly LspDiagnostic[], text: string): ErrorSet {
  const lines = text.split("\n");
  const set: ErrorSet = new Map();
  for (const d of diagnostics) {
    if ((d.severity ?? 1) !== 1) continue;
    const { start, end } = d.range;
    const line = lines[start.line] ?? "";
    const token = start.line === end.line
      ? line.slice(start.character, end.character)
      : line.slice(start.character);
    const key = `${d.message}\u0000${token.trim()}`;
    const entry = set.get(key);
    if (entry) entry.count++;
    else set.set(key, { line: start.line + 1, message: d.message, count: 1 });
  }
  return set;
}
