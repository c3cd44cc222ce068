/**
 * Who watches tool calls: the service's dashboard (src/dashboard/) hands each session an
 * observer, and the call pipeline (call.ts) reports every call to it while someone watches.
 * While no one does, a call pays one property check and nothing else.
 * @module
 */

/** What a finished call reports: its answer text, whether it is an error, reports beside it. */
export interface ObservedResult {
  text: string;
  isError: boolean;
  /** Reports that follow the answer (what a references answer could not analyse, ...). */
  notes?: readonly string[];
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
