/**
 * The errors an edit introduced, returned with the edit. Every editing tool (marker `can-edit`)
 * runs under {@linkcode reportingNewDiagnostics}; the write path calls `watchDiagnostics`
 * (new_errors_watch.ts) around each commit. Before the files are written, the running
 * language servers are asked for the errors of the changed files and of the files importing
 * them, at the versions on disk (the errors found after the previous edit serve when nothing
 * was written since); once the write is committed the check of the versions just sent starts
 * (errors only, file after file, no sleeps). An error is recognised across the edit by its
 * message and the text it points at, or by its code and message on the line the edit maps its
 * old line to (lsp/error_identity.ts), so code that only moved, or that a rename changed, is not
 * "new".
 *
 * An error counts as introduced only against the errors of the same file at its previous
 * version. That "before" is asked for at most `BASELINE_WAIT_MS` (lsp/edit_checks.ts): on the
 * warm path (the same files edited again) it is the previous check's result and costs nothing,
 * so only the first edit of a file pays one request; waiting for it keeps the report exact,
 * where listing a file's errors without it would repeat its old errors after every edit. An
 * edited file whose "before" did not come in time has its errors listed as errors of an edited
 * file not checked before the edit, never as introduced (a new file's "before" is empty).
 *
 * The edit's answer waits for the check at most `REPORT_WAIT_MS` (lsp/edit_checks.ts; the
 * language server's re-check after a change: tens of ms on tsserver for a 3,000-file project, a
 * few hundred on a busy machine). A check that finishes in time is reported in the answer: its
 * first line (Serena's `OK`) stays, and it gains
 * `Introduced 2 errors (0-based lines): src/b.ts:1 Type 'string' is not assignable to ...`. A
 * later one is never lost: the next answer in the same session waits for it and carries
 * `Your previous edit of src/b.ts introduced 2 errors (0-based lines): ...` as a note beside the
 * answer (a content block of its own in MCP), so that no answer changes shape because of another
 * tool. The next write to the project waits for it too, so the check sees exactly the versions
 * it was for and its result is the "before" of that write.
 *
 * Bounded (new_errors_watch.ts): only servers already running are asked (an edit never starts
 * one), every file the edit changed up to a limit (a rename's tests in a second tsconfig or
 * outside pyright's `include` included: the server opens them where they belong) and a few
 * files importing them, and the check starts no request after its budget. Switched off with
 * `report_new_diagnostics: false`; `"wait"` waits for the whole check.
 *
 * What the project remembers between edits (each file's errors, importers found, checks
 * running, the waits) is its `EditChecks` (lsp/edit_checks.ts, `ProjectServices.editChecks`);
 * the reports a session has yet to deliver are its `lateReports` (session/late_reports.ts); the
 * report's text is new_errors_report.ts. This file is the part around each tool call: it sits
 * beside `tool.ts`, not in `shared/`, as part of how every tool is called (`defineTool` wraps
 * the handler), not a helper a family picks.
 * @module
 */
import type { ToolAnswer } from "./answer.ts";
import type { Session } from "../session/session.ts";
import type { Project } from "../project/project.ts";
import { REPORT_WAIT_MS } from "../lsp/edit_checks.ts";
import { type EditReport, formatReport, withNotes, withReport } from "./new_errors_report.ts";

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
    const reports = ctx.session.lateReports;
    const outermost = reports.callsInFlight === 0;
    if (outermost) await reports.ready();
    reports.callStarted();
    let answer: ToolAnswer;
    let own: string | null = null;
    let late: Promise<string | null> | null = null;
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
            const files = [...new Set(call.checks.flatMap((c) => c.files))];
            late = all.then(() => formatReport(call, files));
          }
        }
      }
    } finally {
      reports.callEnded();
    }
    const previous = outermost ? await reports.take() : [];
    if (late) reports.add(late);
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
    const reports = ctx.session.lateReports;
    const outermost = reports.callsInFlight === 0;
    if (outermost) await reports.ready();
    reports.callStarted();
    let answer: ToolAnswer;
    try {
      answer = await handler(args, ctx);
    } finally {
      reports.callEnded();
    }
    if (!outermost || reports.pending === 0) return answer;
    return withNotes(answer, await reports.take());
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
