/**
 * The errors an edit introduced, returned with the edit. Every editing tool (marker `can-edit`)
 * runs under {@linkcode reportingNewDiagnostics}; the write path calls
 * {@linkcode watchDiagnostics} around each commit. Before the files are written, the running
 * language servers are asked for the errors of the changed files and of the files importing
 * them (the errors found after the previous edit serve when nothing was written since); once
 * the write is committed the check of the versions just sent starts (errors only, file after
 * file, no sleeps). Errors are compared by message and the text they point at, never by line,
 * so code that only moved is not "new".
 *
 * The edit's answer waits for that check at most a quarter of the edit's own time
 * ({@linkcode WAIT_SHARE}; not at all when that is under {@linkcode MIN_WAIT_MS}): the language
 * server's re-check of a large project after a change (tsserver's program update, mostly) takes
 * far longer than a small edit, and would otherwise dominate every edit. A check that
 * finishes in time is reported in the answer: its first line (Serena's `OK`) stays, and it gains
 * `Introduced 2 errors: src/b.ts:2 Type 'string' is not assignable to type 'number'. ...`. A
 * later one is never lost: the next answer in the same session waits for it and carries
 * `Your previous edit of src/b.ts introduced 2 errors: ...` as a note beside the answer (a content
 * block of its own in MCP), so that no answer changes shape because of another tool. The next
 * write to the project waits for it too, so the check sees exactly the versions it was for and
 * its result is the "before" of that write.
 *
 * Bounded: only servers already running are asked (an edit never starts one), at most
 * {@linkcode MAX_FILES} files, and the check starts no request after {@linkcode BUDGET_MS}.
 * Switched off with `report_new_diagnostics: false`; `"wait"` always waits for the report.
 *
 * It sits beside `tool.ts`, not in `shared/`: it is part of how every editing tool is called
 * (`defineTool` wraps the handler, the write path reports each commit), not a helper a family
 * picks; it needs the tool context and the session's pending reports.
 * @module
 */
import { relative } from "node:path";
import { log } from "../log.ts";
import type { ManagedServer } from "../lsp/managed_server.ts";
import type { LspDiagnostic } from "../lsp/language_server.ts";
import type { ToolAnswer, ToolContext } from "./tool.ts";
import { findImporters, importsChanged } from "../toolchain/graph/importers.ts";

/** Files checked per edit: the changed ones first, then their importers. */
const MAX_FILES = 12;
/** Time for the whole check (before and after): no request starts later. */
const BUDGET_MS = 8_000;
/** Errors listed in the answer. */
const MAX_SHOWN = 10;
/** How long the errors found after an edit serve as the "before" of the next one. */
const REUSE_MS = 60_000;
/**
 * The share of an edit's own time its answer may wait for the check (the rest of the check is
 * reported with the next answer). The issue's target: the report adds under 25% to an edit.
 */
export const WAIT_SHARE = 0.25;

/** Shorter waits are not worth a timer (see {@linkcode within}). */
const MIN_WAIT_MS = 10;

let waitShare = WAIT_SHARE;

/**
 * Change how long edits wait for their report, as a share of their own time (tests: 0 always
 * defers it to the next answer, Infinity always waits). Returns a function restoring the old one.
 */
export function setReportWaitShare(share: number): () => void {
  const old = waitShare;
  waitShare = share;
  return () => {
    waitShare = old;
  };
}

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

/**
 * How long the importers found for a write serve the next write of the same files, when nothing
 * else was written since: as long as the import index's own file list (`importers.ts`).
 */
const IMPORTERS_REUSE_MS = 10_000;

/** Per project root: the importers last found per set of written files. */
const importersFound = new Map<
  string,
  Map<string, { generation: number; at: number; importers: string[] }>
>();

function lastImporters(root: string) {
  let memo = importersFound.get(root);
  if (!memo) importersFound.set(root, memo = new Map());
  if (memo.size > 100) memo.clear();
  return memo;
}

/** Per project root: the checks still running (each settles, never rejects). */
const running = new Map<string, Set<Promise<void>>>();

function track(root: string, check: Promise<void>): void {
  let set = running.get(root);
  if (!set) running.set(root, set = new Set());
  set.add(check);
  void check.finally(() => {
    set.delete(check);
    if (set.size === 0 && running.get(root) === set) running.delete(root);
  });
}

/**
 * Resolves when the checks started after earlier writes (to the project at `root`, or to any
 * project) have finished. The write path waits for this; so does the benchmark.
 */
export async function checksSettled(root?: string): Promise<void> {
  const sets = root === undefined ? [...running.values()] : [running.get(root)];
  await Promise.all(sets.flatMap((set) => [...(set ?? [])]));
}

/** One error the edit introduced. */
export interface NewError {
  relPath: string;
  /** 1-based line. */
  line: number;
  message: string;
}

/** What one editing call's writes collect: the errors found, the checks, the time spent. */
interface CallReport {
  found: NewError[];
  /** The checks started after each commit, with the files written. */
  checks: Array<{ files: string[]; done: Promise<void> }>;
  /** Time the write path spent on the report before its checks started (ms). */
  spentMs: number;
}

const collectors = new WeakMap<ToolContext, CallReport>();

/** A report not ready when its edit answered: delivered with the session's next answer. */
interface PendingReport {
  files: string[];
  errors: Promise<NewError[]>;
}

/** Per session: calls in flight (only the outermost delivers) and the reports to deliver. */
const sessions = new WeakMap<object, { depth: number; pending: PendingReport[] }>();

function stateOf(session: object) {
  let state = sessions.get(session);
  if (!state) sessions.set(session, state = { depth: 0, pending: [] });
  return state;
}

type Handler<A> = (args: A, ctx: ToolContext) => Promise<ToolAnswer>;

/**
 * Wrap an editing tool's handler: the writes it makes are checked for new errors, which are
 * appended to its answer when the check ends within {@linkcode WAIT_SHARE} of the edit's own
 * time, or else to the session's next answer (nothing when there are none, or when
 * `report_new_diagnostics` is off). Earlier reports still pending come with this answer.
 */
export function reportingNewDiagnostics<A>(handler: Handler<A>): Handler<A> {
  return async (args, ctx) => {
    const state = stateOf(ctx.session);
    const outermost = state.depth === 0;
    if (outermost) await settle(state);
    state.depth++;
    let answer: ToolAnswer;
    let own: string | null = null;
    let late: PendingReport | null = null;
    try {
      const settings = ctx.session.project?.settings ?? ctx.session.settings;
      if (settings.report_new_diagnostics === false) {
        answer = await handler(args, ctx);
      } else {
        const call: CallReport = { found: [], checks: [], spentMs: 0 };
        const inner: ToolContext = { ...ctx };
        collectors.set(inner, call);
        const started = performance.now();
        answer = await handler(args, inner);
        if (call.checks.length > 0) {
          const ownMs = performance.now() - started - call.spentMs;
          const all = Promise.all(call.checks.map((c) => c.done));
          // "wait": the report always comes in the edit's own answer (the check is bounded).
          const budget = settings.report_new_diagnostics === "wait"
            ? Infinity
            : waitShare * ownMs - call.spentMs;
          if (await within(all, budget)) {
            if (call.found.length > 0) own = formatNewErrors(call.found);
          } else {
            late = {
              files: [...new Set(call.checks.flatMap((c) => c.files))],
              errors: all.then(() => call.found),
            };
          }
        }
      }
    } finally {
      state.depth--;
    }
    const previous = outermost ? await pendingReports(state) : [];
    if (late) state.pending.push(late);
    const reported = own === null ? answer : withReport(answer, own, "new_errors");
    return withNotes(reported, previous);
  };
}

/**
 * Wrap a tool that edits nothing: when it is the session's outermost call in flight, the
 * reports of earlier edits that were not ready when those answered come first in its answer.
 */
export function deliveringNewDiagnostics<A>(handler: Handler<A>): Handler<A> {
  return async (args, ctx) => {
    const state = stateOf(ctx.session);
    const outermost = state.depth === 0;
    if (outermost) await settle(state);
    state.depth++;
    let answer: ToolAnswer;
    try {
      answer = await handler(args, ctx);
    } finally {
      state.depth--;
    }
    if (!outermost || state.pending.length === 0) return answer;
    return withNotes(answer, await pendingReports(state));
  };
}

/**
 * Whether `promise` settles within `ms` (true for Infinity). False at once below
 * {@linkcode MIN_WAIT_MS}: no check ends that soon, and a timer that short fires only after the
 * check's own first steps, overrunning the wait several times.
 */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  if (ms === Infinity) {
    await promise;
    return true;
  }
  if (!(ms >= MIN_WAIT_MS)) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Wait for the checks behind the session's pending reports (each is bounded) before the next
 * call runs, so it never shares the language server with them.
 */
async function settle(state: { pending: PendingReport[] }): Promise<void> {
  if (state.pending.length > 0) await Promise.all(state.pending.map((p) => p.errors));
}

/** The session's pending reports, awaited (each check is bounded) and formatted; then cleared. */
async function pendingReports(state: { pending: PendingReport[] }): Promise<string[]> {
  const taken = state.pending.splice(0);
  const lines: string[] = [];
  for (const report of taken) {
    const errors = await report.errors;
    if (errors.length > 0) lines.push(formatPreviousErrors(report.files, errors));
  }
  return lines;
}

/** `2 errors: a.ts:2 message. b.ts:5 message.` (the first {@linkcode MAX_SHOWN}). */
function describeErrors(errors: readonly NewError[]): string {
  const shown = errors.slice(0, MAX_SHOWN).map((e) =>
    `${e.relPath}:${e.line} ${e.message.split("\n")[0]!.replace(/\.$/, "")}.`
  );
  const more = errors.length > MAX_SHOWN ? ` … and ${errors.length - MAX_SHOWN} more.` : "";
  const noun = errors.length === 1 ? "error" : "errors";
  return `${errors.length} ${noun}: ${shown.join(" ")}${more}`;
}

/** `Introduced 2 errors: a.ts:2 message. b.ts:5 message.` (the first {@linkcode MAX_SHOWN}). */
export function formatNewErrors(errors: readonly NewError[]): string {
  return `Introduced ${describeErrors(errors)}`;
}

/** `Your previous edit of a.ts introduced 1 error: b.ts:2 message.` */
export function formatPreviousErrors(
  files: readonly string[],
  errors: readonly NewError[],
): string {
  const named = files.length === 0
    ? ""
    : ` of ${files.slice(0, 2).join(", ")}${
      files.length > 2 ? ` and ${files.length - 2} more files` : ""
    }`;
  return `Your previous edit${named} introduced ${describeErrors(errors)}`;
}

/** The answer with `report` as its last line (a JSON object answer gets it under `key`). */
function withReport(answer: ToolAnswer, report: string, key: string): ToolAnswer {
  return mapAnswer(answer, (text) => {
    const json = jsonObject(text);
    if (json) return JSON.stringify({ ...json, [key]: report });
    return `${text}\n${report}`;
  });
}

/**
 * The answer with earlier edits' reports as notes beside it (tools/tool.ts `ToolAnswer`): the
 * MCP answer carries them in a content block of their own, so the answer's text, JSON or not,
 * keeps the shape its tool gives it.
 */
function withNotes(answer: ToolAnswer, reports: readonly string[]): ToolAnswer {
  if (reports.length === 0) return answer;
  const text = typeof answer === "string" ? { text: answer } : answer;
  return { ...text, notes: [...(text.notes ?? []), ...reports] };
}

function jsonObject(text: string): Record<string, unknown> | null {
  if (!text.trimStart().startsWith("{")) return null;
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch { /* not JSON after all */ }
  return null;
}

function mapAnswer(answer: ToolAnswer, add: (text: string) => string): ToolAnswer {
  if (typeof answer === "string") return add(answer);
  return {
    text: add(answer.text),
    ...(answer.shorter
      ? { shorter: answer.shorter.map((s) => ({ note: s.note, text: () => add(s.text()) })) }
      : {}),
    ...(answer.notes ? { notes: answer.notes } : {}),
  };
}

/** What the write path tells the watch: real paths changed, and moves. */
export interface WatchedWrite {
  changed: ReadonlyArray<{ real: string; existedBefore: boolean }>;
  moves: ReadonlyArray<{ from: string; to: string }>;
}

/** Errors of one file, keyed by message and the text they point at. */
type ErrorSet = Map<string, { line: number; message: string; count: number }>;

/** A check around one commit: taken before the write; `after()` once it landed. */
export interface DiagnosticsWatch {
  /** Start the check of the versions just written (it runs on; the tool's wrapper awaits it). */
  after(): void;
}

/**
 * Before a write: wait for the checks of earlier writes to the project (so each sees the
 * versions it was for), then take the errors of the files this write touches (and their
 * importers), when the tool runs under {@linkcode reportingNewDiagnostics} and a server handling
 * them runs; null otherwise.
 */
export async function watchDiagnostics(
  ctx: ToolContext,
  write: WatchedWrite,
): Promise<DiagnosticsWatch | null> {
  const call = collectors.get(ctx);
  const started = performance.now();
  try {
    const project = ctx.project();
    await checksSettled(project.root);
    if (!call) return null;
    const watch = await prepareWatch(ctx, call, write, started + BUDGET_MS);
    call.spentMs += performance.now() - started;
    return watch;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    log.debug(`new diagnostics skipped: ${String(error)}`);
    return null;
  }
}

async function prepareWatch(
  ctx: ToolContext,
  call: CallReport,
  write: WatchedWrite,
  deadline: number,
): Promise<DiagnosticsWatch | null> {
  const started = performance.now();
  const project = ctx.project();
  const pool = ctx.session.services(project).pool;
  const live = new Map<string, ManagedServer>();
  for (const server of pool.running()) if (server.pid !== null) live.set(server.id, server);
  if (live.size === 0) return null;
  const root = project.root;
  const rel = (real: string) => relative(root, real).split("\\").join("/");
  const serverOf = (relPath: string) => live.get(pool.serverIdFor(relPath) ?? "");
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
  const targetsKey = targets.map((t) => t.relPath).join("\u0000");
  const importersMemo = lastImporters(root);
  let importers: string[] | null = null;
  if (targets.length > 0 && files.length < MAX_FILES) {
    const memo = importersMemo.get(targetsKey);
    if (
      memo && write.moves.length === 0 && memo.generation === generation &&
      performance.now() - memo.at < IMPORTERS_REUSE_MS
    ) {
      importers = memo.importers;
    } else {
      const at = performance.now();
      const sites = await findImporters(project, targets, (r) => serverOf(r) !== undefined, {
        limit: MAX_FILES * 4,
        signal: ctx.signal,
      });
      importers = [...new Set(sites.map((site) => site.relPath))];
      importersMemo.set(targetsKey, { generation, at, importers });
    }
    for (const relPath of importers) add(relPath, movedTo(relPath));
  }
  if (files.length === 0) return null;
  const listed = performance.now();
  const known = lastChecked(root);
  /** The errors of a file now; null when unknown (no server, too late, failed, changed meanwhile). */
  const errorsOf = async (
    relPath: string,
    reuse: boolean,
    signal: AbortSignal,
  ): Promise<ErrorSet | null> => {
    if (performance.now() > deadline) return null;
    const server = serverOf(relPath);
    if (!server) return null;
    try {
      const text = readText(project.absolute(relPath));
      // The errors found after the previous edit, when nothing was written since.
      const last = known.get(relPath);
      if (
        reuse && last && last.text === text && last.generation === generation &&
        Date.now() - last.at < REUSE_MS
      ) {
        return last.errors;
      }
      const seenGeneration = generation;
      // Kept open (the engine closes the least used beyond its limit): the files an agent edits
      // are checked again soon, and closing one makes tsserver reload it from disk and update
      // its program once more (measured: the check of a file edited in turn took twice as long).
      const diagnostics = await server.diagnostics(relPath, { signal, errorsOnly: true });
      // Version-matched: the file must still hold the text the server just checked.
      if (readText(project.absolute(relPath)) !== text) return null;
      const errors = errorSet(diagnostics, text);
      known.set(relPath, { text, generation: seenGeneration, at: Date.now(), errors });
      return errors;
    } catch (error) {
      if (signal.aborted) throw error;
      log.debug(`new diagnostics: ${relPath}: ${String(error)}`);
      return null;
    }
  };
  // All files at once: the server checks them together (pyright's checking progress, which
  // could outlast it, no longer holds queries up: ProgressTracker.ignoreServerProgress).
  const before = new Map<string, ErrorSet | null>(
    await Promise.all(
      files.map(async ([b, a]) =>
        [a ?? b!, b === null ? new Map() : await errorsOf(b, true, ctx.signal)] as const
      ),
    ),
  );
  log.debug(
    `new diagnostics: ${files.length} file(s) listed in ${(listed - started).toFixed(1)} ms, ` +
      `their errors before in ${(performance.now() - listed).toFixed(1)} ms`,
  );
  return {
    after() {
      const afterStart = performance.now();
      const written = write.changed.map((c) => movedTo(rel(c.real))).filter((r) =>
        !r.startsWith("..")
      );
      importsChanged(project, written, write.moves.length > 0);
      // This write changed only the targets, so who imports them is still known.
      const memo = importersMemo.get(targetsKey);
      if (memo && write.moves.length === 0) memo.generation = generation;
      else importersMemo.delete(targetsKey);
      // Runs on after the tool answers: its own signal (the call's may end with the call).
      const signal = new AbortController().signal;
      // Started once the answer is on its way (a macrotask later): its client-side work never
      // delays an answer that is not going to wait for it.
      const done = new Promise((resolve) => setTimeout(resolve, 0)).then(async () => {
        const checked = await Promise.all(files.map(async ([, a]) => {
          const old = a === null ? null : before.get(a);
          return old ? { a: a!, old, now: await errorsOf(a!, false, signal) } : null;
        }));
        // Reported in the files' order, whichever answered first.
        for (const entry of checked) {
          if (!entry?.now) continue;
          for (const [key, e] of entry.now) {
            const extra = e.count - (entry.old.get(key)?.count ?? 0);
            for (let n = 0; n < extra; n++) {
              call.found.push({ relPath: entry.a, line: e.line, message: e.message });
            }
          }
        }
        log.debug(
          `new diagnostics: after in ${Math.round(performance.now() - afterStart)} ms, ` +
            `${Math.round(performance.now() - started)} ms in all`,
        );
      }).catch((error) => log.debug(`new diagnostics: check failed: ${String(error)}`));
      track(root, done);
      call.checks.push({ files: written, done });
    },
  };
}

/** A small source file's text ("" when unreadable); read at once, no event-loop turn. */
function readText(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
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
