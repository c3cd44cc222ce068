/**
 * The errors an edit introduced, returned with the edit. Every editing tool (marker `can-edit`)
 * runs under {@linkcode reportingNewDiagnostics}; the write path calls
 * {@linkcode watchDiagnostics} around each commit. Before the files are written, the running
 * language servers are asked for the errors of the changed files and of the files importing
 * them, at the versions on disk (the errors found after the previous edit serve when nothing
 * was written since); once the write is committed the check of the versions just sent starts
 * (errors only, file after file, no sleeps). An error is recognised across the edit by its
 * message and the text it points at, or by its code and message on the line the edit maps its
 * old line to (lsp/error_identity.ts), so code that only moved, or that a rename changed, is not
 * "new".
 *
 * An error counts as introduced only against the errors of the same file at its previous
 * version. That "before" is asked for at most `BASELINE_WAIT_MS` (lsp/edit_checks.ts): on the warm path
 * (the same files edited again) it is the previous check's result and costs nothing, so only
 * the first edit of a file pays one request; waiting for it keeps the report exact, where
 * listing a file's errors without it would repeat its old errors after every edit. An edited
 * file whose "before" did not come in time has its errors listed as errors of an edited file
 * not checked before the edit, never as introduced (a new file's "before" is empty).
 *
 * The edit's answer waits for the check at most `REPORT_WAIT_MS` (lsp/edit_checks.ts; the language
 * server's re-check after a change: tens of ms on tsserver for a 3,000-file project, a few
 * hundred on a busy machine). A check that finishes in time is reported in the answer: its first line
 * (Serena's `OK`) stays, and it gains
 * `Introduced 2 errors (0-based lines): src/b.ts:1 Type 'string' is not assignable to ...`. A
 * later one is never lost: the next answer in the same session waits for it and carries
 * `Your previous edit of src/b.ts introduced 2 errors (0-based lines): ...` as a note beside the answer (a content
 * block of its own in MCP), so that no answer changes shape because of another tool. The next
 * write to the project waits for it too, so the check sees exactly the versions it was for and
 * its result is the "before" of that write.
 *
 * Bounded: only servers already running are asked (an edit never starts one), every file the
 * edit changed up to {@linkcode MAX_CHANGED} (a rename's tests in a second tsconfig or outside
 * pyright's `include` included: the server opens them where they belong) and at most
 * {@linkcode MAX_IMPORTERS} files importing them, and the check starts no request after
 * {@linkcode BUDGET_MS}. Switched off with `report_new_diagnostics: false`; `"wait"` waits for
 * the whole check.
 *
 * It sits beside `tool.ts`, not in `shared/`: it is part of how every editing tool is called
 * (`defineTool` wraps the handler, the write path reports each commit), not a helper a family
 * picks; it needs the tool context and the session's pending reports.
 *
 * What the project remembers between edits (each file's errors, importers found, checks
 * running, the waits) is its `EditChecks` (lsp/edit_checks.ts, `ProjectServices.editChecks`).
 * @module
 */
import { relative } from "node:path";
import { log } from "../log.ts";
import type { ManagedServer } from "../lsp/managed_server.ts";
import type { ToolAnswer } from "./answer.ts";
import type { Session } from "../session/session.ts";
import type { Project } from "../project/project.ts";
import { type EditChecks, REPORT_WAIT_MS } from "../lsp/edit_checks.ts";
import { type FileErrors, fileErrors, introducedErrors } from "../lsp/error_identity.ts";
import { findImporters, importsChanged } from "../toolchain/graph/importers.ts";

/** Errors listed in the answer. */
const MAX_SHOWN = 10;

/** One error the edit introduced (or found in an edited file; see {@linkcode EditReport}). */
export interface NewError {
  relPath: string;
  /** 0-based line, as Serena's tools count them. */
  line: number;
  message: string;
}

/** What the check of one editing call found. */
export interface EditReport {
  /** Errors not in the file's "before". */
  introduced: NewError[];
  /** Every error of an edited file whose "before" could not be taken: maybe old, maybe new. */
  unchecked: NewError[];
  /** Changed files the check covered, and how many there were (when it could not cover all). */
  covered?: { checked: number; of: number };
}

/**
 * `2 errors (0-based lines): a.ts:1 message. b.ts:4 message.` (the first {@linkcode MAX_SHOWN}):
 * lines counted as the editing tools' own answers and arguments count them.
 */
function describeErrors(errors: readonly NewError[]): string {
  const shown = errors.slice(0, MAX_SHOWN).map((e) =>
    `${e.relPath}:${e.line} ${e.message.split("\n")[0]!.replace(/\.$/, "")}.`
  );
  const more = errors.length > MAX_SHOWN ? ` … and ${errors.length - MAX_SHOWN} more.` : "";
  const noun = errors.length === 1 ? "error" : "errors";
  return `${errors.length} ${noun} (0-based lines): ${shown.join(" ")}${more}`;
}

/** `Introduced 2 errors (0-based lines): a.ts:2 message. b.ts:5 message.` (the first {@linkcode MAX_SHOWN}). */
export function formatNewErrors(errors: readonly NewError[]): string {
  return `Introduced ${describeErrors(errors)}`;
}

/** `Your previous edit of a.ts introduced 1 error (0-based lines): b.ts:2 message.` */
export function formatPreviousErrors(
  files: readonly string[],
  errors: readonly NewError[],
): string {
  return `${previousEdit(files)} introduced ${describeErrors(errors)}`;
}

/** `Your previous edit of a.ts, b.ts and 2 more files` */
function previousEdit(files: readonly string[]): string {
  const named = files.length === 0
    ? ""
    : ` of ${files.slice(0, 2).join(", ")}${
      files.length > 2 ? ` and ${files.length - 2} more files` : ""
    }`;
  return `Your previous edit${named}`;
}

/**
 * A check's report, one line per part; null when it has nothing to say. `previousOf`: the
 * files of an earlier edit whose report is late (then each line names that edit).
 */
export function formatReport(report: EditReport, previousOf?: readonly string[]): string | null {
  const lines: string[] = [];
  const edit = previousOf ? previousEdit(previousOf) : null;
  if (report.introduced.length > 0) {
    lines.push(
      edit
        ? formatPreviousErrors(previousOf!, report.introduced)
        : formatNewErrors(report.introduced),
    );
  }
  if (report.unchecked.length > 0) {
    const errors = describeErrors(report.unchecked);
    lines.push(
      edit
        ? `${edit}: its files not checked before it have ${errors}`
        : `Edited files not checked before the edit have ${errors}`,
    );
  }
  if (report.covered) {
    const counted = `${report.covered.checked} of ${report.covered.of} changed files`;
    lines.push(edit ? `${edit}: checked ${counted} for errors.` : `Checked ${counted} for errors.`);
  }
  return lines.length > 0 ? lines.join("\n") : null;
}

/** The answer with `report` as its last line (a JSON object answer gets it under `key`). */
export function withReport(answer: ToolAnswer, report: string, key: string): ToolAnswer {
  return mapAnswer(answer, (text) => {
    const json = jsonObject(text);
    if (json) return JSON.stringify({ ...json, [key]: report });
    return `${text}\n${report}`;
  });
}

/**
 * The answer with earlier edits' reports as notes beside it (tools/answer.ts `ToolAnswer`): the
 * MCP answer carries them in a content block of their own, so the answer's text, JSON or not,
 * keeps the shape its tool gives it.
 */
export function withNotes(answer: ToolAnswer, reports: readonly string[]): ToolAnswer {
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

/** Shorter waits are not worth a timer (see {@linkcode within}). */
const MIN_WAIT_MS = 10;

/** What one editing call's writes collect: the report, and the checks started after commits. */
export interface CallReport extends EditReport {
  /** The checks started after each commit, with the files written. */
  checks: Array<{ files: string[]; done: Promise<void> }>;
  /** How long the answer waits for the checks: the project's (`EditChecks.waits`). */
  reportWaitMs: number;
}

/**
 * What the wrappers read of a tool call's context: tool.ts's ToolContext is one, and this file
 * names no more of it, since tool.ts wraps every handler here.
 */
export interface WatchedContext {
  readonly session: Session;
  project(): Project;
  readonly signal: AbortSignal;
}

/** The report of the editing call whose context this is (each call has a context of its own). */
const collectors = new WeakMap<WatchedContext, CallReport>();

/** The report `ctx`'s writes add to; null when its call does not report new errors. */
export function callReportOf(ctx: WatchedContext): CallReport | null {
  return collectors.get(ctx) ?? null;
}

/** A report not ready when its edit answered: delivered with the session's next answer. */
interface PendingReport {
  files: string[];
  report: Promise<EditReport>;
}

/** Per session: calls in flight (only the outermost delivers) and the reports to deliver. */
const sessions = new WeakMap<object, { depth: number; pending: PendingReport[] }>();

function stateOf(session: object) {
  let state = sessions.get(session);
  if (!state) sessions.set(session, state = { depth: 0, pending: [] });
  return state;
}

type Handler<A, C extends WatchedContext> = (args: A, ctx: C) => Promise<ToolAnswer>;

/**
 * Wrap an editing tool's handler: the writes it makes are checked for new errors, which are
 * appended to its answer when the check ends within the project's report wait (`"wait"`: the
 * whole check), or else to the session's next answer (nothing when there are none, or when
 * `report_new_diagnostics` is off). Earlier reports still pending come with this answer.
 */
export function reportingNewDiagnostics<A, C extends WatchedContext>(
  handler: Handler<A, C>,
): Handler<A, C> {
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
        const call: CallReport = {
          introduced: [],
          unchecked: [],
          checks: [],
          reportWaitMs: REPORT_WAIT_MS,
        };
        const inner: C = { ...ctx };
        collectors.set(inner, call);
        answer = await handler(args, inner);
        if (call.checks.length > 0) {
          const all = Promise.all(call.checks.map((c) => c.done));
          const bound = settings.report_new_diagnostics === "wait" ? Infinity : call.reportWaitMs;
          if (await within(all, bound)) {
            own = formatReport(call);
          } else {
            late = {
              files: [...new Set(call.checks.flatMap((c) => c.files))],
              report: all.then(() => call),
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
export function deliveringNewDiagnostics<A, C extends WatchedContext>(
  handler: Handler<A, C>,
): Handler<A, C> {
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
  if (state.pending.length > 0) await Promise.all(state.pending.map((p) => p.report));
}

/** The session's pending reports, awaited (each check is bounded) and formatted; then cleared. */
async function pendingReports(state: { pending: PendingReport[] }): Promise<string[]> {
  const taken = state.pending.splice(0);
  const notes: string[] = [];
  for (const pending of taken) {
    const text = formatReport(await pending.report, pending.files);
    if (text !== null) notes.push(text);
  }
  return notes;
}

/**
 * Files an edit changed that are checked: all of them up to this many (well under the open
 * documents' limit, `lsp/documents.ts`); beyond it the report says how many were checked.
 */
const MAX_CHANGED = 60;
/** Unchanged files importing the changed ones, checked after them. */
const MAX_IMPORTERS = 12;
/** Time for the whole check (before and after): no request starts later. */
const BUDGET_MS = 8_000;

/** What the write path tells the watch: real paths changed, and moves. */
export interface WatchedWrite {
  changed: ReadonlyArray<{ real: string; existedBefore: boolean }>;
  moves: ReadonlyArray<{ from: string; to: string }>;
}

/** A check around one commit: taken before the write; `after()` once it landed. */
export interface DiagnosticsWatch {
  /** Start the check of the versions just written (it runs on; the tool's wrapper awaits it). */
  after(): void;
}

/**
 * Before a write: wait for the checks of earlier writes to the project (so each sees the
 * versions it was for), then take the errors of the files this write touches (and their
 * importers), when the tool runs under `reportingNewDiagnostics` and a server handling them
 * runs; null otherwise.
 */
export async function watchDiagnostics(
  ctx: WatchedContext,
  write: WatchedWrite,
): Promise<DiagnosticsWatch | null> {
  const call = callReportOf(ctx);
  const started = performance.now();
  try {
    const project = ctx.project();
    await ctx.session.existingServices(project)?.editChecks.settled();
    if (!call) return null;
    return await prepareWatch(ctx, call, write, started + BUDGET_MS);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    log.debug(`new diagnostics skipped: ${String(error)}`);
    return null;
  }
}

/**
 * The write path committed a change to the active project (whatever tool made it): the errors
 * and importers its edit checks found before it are stale.
 */
export function noteWrite(ctx: WatchedContext): void {
  const project = ctx.session.project;
  if (project) ctx.session.existingServices(project)?.editChecks.noteWrite();
}

/** The project and running servers a watch works with, and how it names files. */
interface WatchScope {
  project: Project;
  checks: EditChecks;
  /** The running server handling a project-relative path. */
  serverOf(relPath: string): ManagedServer | undefined;
  /** A real path as a project-relative one ("../" when outside the project). */
  rel(real: string): string;
  /** Where the write moves a project-relative path (itself when it moves nothing above it). */
  movedTo(relPath: string): string;
  /** No request starts after this (`performance.now()`). */
  deadline: number;
}

/** A file the check covers, by its path before and after the write (null: absent then). */
interface WatchedFile {
  before: string | null;
  after: string | null;
  /** The write changed it (else it imports a changed file). */
  edited: boolean;
}

async function prepareWatch(
  ctx: WatchedContext,
  call: CallReport,
  write: WatchedWrite,
  deadline: number,
): Promise<DiagnosticsWatch | null> {
  const started = performance.now();
  const scope = watchScope(ctx, write, deadline);
  if (!scope) return null;
  const list = new WatchList(scope);
  for (const c of write.changed) {
    const r = scope.rel(c.real);
    if (r.startsWith("..")) continue;
    list.add(c.existedBefore ? r : null, scope.movedTo(r), true);
  }
  list.countCoverage(call);
  const targetsKey = await addImporters(scope, list, write, ctx.signal);
  const files = list.files;
  if (files.length === 0) return null;
  const listed = performance.now();
  const before = await errorsBefore(scope, files, ctx.signal);
  log.debug(
    `new diagnostics: ${files.length} file(s) listed in ${(listed - started).toFixed(1)} ms, ` +
      `their errors before in ${(performance.now() - listed).toFixed(1)} ms`,
  );
  return {
    after() {
      const written = write.changed.map((c) => scope.movedTo(scope.rel(c.real))).filter((r) =>
        !r.startsWith("..")
      );
      importsChanged(scope.project, written, write.moves.length > 0);
      // A write that moved nothing changed only the targets, so who imports them is still known.
      scope.checks.importersAfterWrite(targetsKey, write.moves.length > 0);
      const done = checkAfter(scope, call, files, before, started);
      scope.checks.track(done);
      call.reportWaitMs = scope.checks.waits.reportMs;
      call.checks.push({ files: written, done });
    },
  };
}

/** The watch's scope, or null when no server of the project runs. */
function watchScope(ctx: WatchedContext, write: WatchedWrite, deadline: number): WatchScope | null {
  const project = ctx.project();
  const services = ctx.session.services(project);
  const live = new Map<string, ManagedServer>();
  for (const server of services.pool.running()) {
    if (server.pid !== null) live.set(server.id, server);
  }
  if (live.size === 0) return null;
  const rel = (real: string) => relative(project.root, real).split("\\").join("/");
  return {
    project,
    checks: services.editChecks,
    serverOf: (relPath) => live.get(services.pool.serverIdFor(relPath) ?? ""),
    rel,
    movedTo: (relPath) => {
      for (const m of write.moves) {
        const from = rel(m.from);
        if (relPath === from) return rel(m.to);
        if (relPath.startsWith(from + "/")) return rel(m.to) + relPath.slice(from.length);
      }
      return relPath;
    },
    deadline,
  };
}

/**
 * The files a write's check covers, in order: the changed files a running server handles (up
 * to {@linkcode MAX_CHANGED}), then files importing them (up to {@linkcode MAX_IMPORTERS}).
 */
class WatchList {
  readonly files: WatchedFile[] = [];
  readonly #scope: WatchScope;
  readonly #seen = new Set<string>();
  /** Changed files a running server handles, checked or not (beyond MAX_CHANGED). */
  #changedServed = 0;

  constructor(scope: WatchScope) {
    this.#scope = scope;
  }

  add(before: string | null, after: string | null, edited: boolean): void {
    const key = after ?? before ?? "";
    if (this.#seen.has(key) || !this.#scope.serverOf(key)) return;
    this.#seen.add(key);
    if (edited && ++this.#changedServed > MAX_CHANGED) return;
    const importers = this.files.length - Math.min(this.#changedServed, MAX_CHANGED);
    if (!edited && importers >= MAX_IMPORTERS) return;
    this.files.push({ before, after, edited });
  }

  /** Tell the call's report how many changed files were checked, when it was not all of them. */
  countCoverage(call: CallReport): void {
    if (this.#changedServed <= MAX_CHANGED) return;
    call.covered = {
      checked: (call.covered?.checked ?? 0) + MAX_CHANGED,
      of: (call.covered?.of ?? 0) + this.#changedServed,
    };
  }
}

/**
 * Add the files importing the written and moved ones to `list` (those found for the same files
 * before serve when nothing was written or moved since). Returns the key the importers are
 * remembered by.
 */
async function addImporters(
  scope: WatchScope,
  list: WatchList,
  write: WatchedWrite,
  signal: AbortSignal,
): Promise<string> {
  const targets = [
    ...write.changed.map((c) => ({ relPath: scope.rel(c.real), folder: false })),
    ...write.moves.map((m) => ({ relPath: scope.rel(m.from), folder: false })),
  ].filter((t) => !t.relPath.startsWith(".."));
  const key = targets.map((t) => t.relPath).join("\u0000");
  if (targets.length === 0) return key;
  let importers = write.moves.length === 0 ? scope.checks.reusableImporters(key) : null;
  if (importers === null) {
    const at = performance.now();
    const sites = await findImporters(
      scope.project,
      targets,
      (r) => scope.serverOf(r) !== undefined,
      { limit: MAX_IMPORTERS * 4, signal },
    );
    importers = [...new Set(sites.map((site) => site.relPath))];
    scope.checks.rememberImporters(key, importers, at);
  }
  for (const relPath of importers) list.add(relPath, scope.movedTo(relPath), false);
  return key;
}

/**
 * The "before" of each file, by its path after the write: a new file's is empty; null when it
 * did not come within the project's baseline wait. All files are asked at once: the server
 * checks them together (pyright's checking progress, which could outlast it, no longer holds
 * queries up: ProgressTracker.ignoreServerProgress). Each request not answered within the wait
 * is cancelled. Throws only when the call itself is aborted.
 */
async function errorsBefore(
  scope: WatchScope,
  files: readonly WatchedFile[],
  callSignal: AbortSignal,
): Promise<Map<string, FileErrors | null>> {
  const waitMs = scope.checks.waits.baselineMs;
  const baseline = new AbortController();
  const stopBaseline = () => baseline.abort(new Error("The errors before the edit came too late."));
  const abortWithCall = () => stopBaseline();
  callSignal.addEventListener("abort", abortWithCall, { once: true });
  const timer = setTimeout(stopBaseline, Math.max(0, waitMs));
  let before: Map<string, FileErrors | null>;
  try {
    before = new Map(
      await Promise.all(files.map(async ({ before: b, after: a }) => {
        if (b === null) return [a!, { text: "", errors: [] } as FileErrors] as const;
        const errors = await errorsOf(scope, b, {
          reuse: true,
          ask: waitMs > 0,
          signal: baseline.signal,
        });
        return [a ?? b, errors] as const;
      })),
    );
  } finally {
    clearTimeout(timer);
    callSignal.removeEventListener("abort", abortWithCall);
  }
  callSignal.throwIfAborted();
  return before;
}

/**
 * Check the files again once the write landed, and add what the "before" does not explain to
 * the call's report (an edited file without a "before": all its errors, as unchecked). Starts
 * once the answer is on its way (a macrotask later), so its client-side work never delays an
 * answer that is not going to wait for it; settles, never rejects.
 */
function checkAfter(
  scope: WatchScope,
  call: CallReport,
  files: readonly WatchedFile[],
  before: ReadonlyMap<string, FileErrors | null>,
  started: number,
): Promise<void> {
  const afterStart = performance.now();
  // Runs on after the tool answers: its own signal (the call's may end with the call).
  const signal = new AbortController().signal;
  return new Promise((resolve) => setTimeout(resolve, 0)).then(async () => {
    const checked = await Promise.all(files.map(async ({ after: a, edited }) => {
      if (a === null) return null;
      const old = before.get(a) ?? null;
      // An unchanged importer without a "before" has nothing to compare with.
      if (old === null && !edited) return null;
      const now = await errorsOf(scope, a, { reuse: false, ask: true, signal });
      return { relPath: a, old, now };
    }));
    // Reported in the files' order, whichever answered first.
    for (const entry of checked) {
      if (entry?.now) addFound(call, entry.relPath, entry.old, entry.now);
    }
    log.debug(
      `new diagnostics: after in ${Math.round(performance.now() - afterStart)} ms, ` +
        `${Math.round(performance.now() - started)} ms in all`,
    );
  }).catch((error) => log.debug(`new diagnostics: check failed: ${String(error)}`));
}

/**
 * Add a file's errors after the write to the call's report: those its "before" does not explain
 * as introduced, or, without a "before", all of them as unchecked.
 */
function addFound(
  call: CallReport,
  relPath: string,
  old: FileErrors | null,
  now: FileErrors,
): void {
  const found = old === null ? now.errors : introducedErrors(old, now);
  for (const e of found) {
    const error = { relPath, line: e.line, message: e.message };
    (old === null ? call.unchecked : call.introduced).push(error);
  }
}

/**
 * The errors of a file now; null when unknown (no server, past the deadline, failed, changed
 * meanwhile). `reuse`: the errors found after the previous edit serve when nothing was written
 * since; `ask`: else ask the server.
 */
async function errorsOf(
  scope: WatchScope,
  relPath: string,
  options: { reuse: boolean; ask: boolean; signal: AbortSignal },
): Promise<FileErrors | null> {
  if (performance.now() > scope.deadline) return null;
  const server = scope.serverOf(relPath);
  if (!server) return null;
  try {
    const text = readText(scope.project.absolute(relPath));
    const reused = options.reuse ? scope.checks.reusableErrors(relPath, text) : null;
    if (reused) return reused;
    if (!options.ask) return null;
    const seenGeneration = scope.checks.generation;
    // Kept open (the engine closes the least used beyond its limit): the files an agent edits
    // are checked again soon, and closing one makes tsserver reload it from disk and update
    // its program once more (measured: the check of a file edited in turn took twice as long).
    const diagnostics = await server.diagnostics(relPath, {
      signal: options.signal,
      errorsOnly: true,
    });
    // Version-matched: the file must still hold the text the server just checked.
    if (readText(scope.project.absolute(relPath)) !== text) return null;
    const errors = fileErrors(diagnostics, text);
    scope.checks.rememberErrors(relPath, text, seenGeneration, errors);
    return errors;
  } catch (error) {
    log.debug(`new diagnostics: ${relPath}: ${String(error)}`);
    return null;
  }
}

/** A small source file's text ("" when unreadable); read at once, no event-loop turn. */
function readText(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}
