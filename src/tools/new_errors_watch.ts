/**
 * The check for new errors around one commit of the write path (new_errors.ts tells the
 * whole story): before the write, the files it touches and the files importing them are listed
 * and their errors taken (the "before"); after it, the same files are checked again and each
 * error the "before" does not explain is added to the call's report.
 *
 * Bounded: only servers already running are asked (an edit never starts one), every file the
 * edit changed up to {@linkcode MAX_CHANGED} and at most {@linkcode MAX_IMPORTERS} files
 * importing them, and the check starts no request after {@linkcode BUDGET_MS}. What outlives a
 * write (each file's errors, the importers found, the checks running) is the project's
 * `EditChecks` (lsp/edit_checks.ts).
 * @module
 */
import { relative } from "node:path";
import { log } from "../log.ts";
import type { ManagedServer } from "../lsp/managed_server.ts";
import type { Project } from "../project/project.ts";
import type { EditChecks } from "../lsp/edit_checks.ts";
import { type FileErrors, fileErrors, introducedErrors } from "../lsp/error_identity.ts";
import type { ImportIndex } from "../toolchain/graph/importers.ts";
import { type CallReport, callReportOf, type WatchedContext } from "./new_errors.ts";

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
  /** The project's import lines (its services'). */
  imports: ImportIndex;
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

/**
 * The watch around one write, step by step: its scope (the project's running servers), the
 * files to check (the changed ones, then their importers), their errors before the write;
 * `after()` starts the check of the versions written.
 */
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
      scope.imports.changed(written, write.moves.length > 0);
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
    imports: services.imports,
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
    const sites = await scope.imports.importersOf(
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
