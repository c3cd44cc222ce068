/**
 * Who watches tool calls: the service's dashboard (src/dashboard/) hands each session an
 * observer, and the call pipeline (call.ts) reports every call to it while someone watches.
 * While no one does, a call pays one property check and nothing else.
 * @module
 */

/** What a finished call reports: its answer text and whether it is an error. */
export interface ObservedResult {
  text: string;
  isError: boolean;
}

/** One observed call: a way to cancel it, and where to report its end. */
export interface ObservedCall {
  /** Aborted when the watcher cancels the call (the call then answers that it was cancelled). */
  readonly signal: AbortSignal;
  finished(result: ObservedResult): void;
}

/** The observer of one session's tool calls. */
export interface ToolCallObserver {
  /** Whether anyone watches now; when false, calls are not reported at all. */
  readonly watching: boolean;
  callStarted(tool: string, args: Readonly<Record<string, unknown>>): ObservedCall;
}
