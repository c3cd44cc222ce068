/**
 * Logging to stderr only: stdout carries nothing but MCP messages.
 * @module
 */

export const LOG_LEVELS = ["debug", "info", "warn", "error", "off"] as const;
export type LogLevel = typeof LOG_LEVELS[number];

let threshold = LOG_LEVELS.indexOf("info");
const encoder = new TextEncoder();
/** Where log lines go: stderr, or a file (the shared service has no stderr to write to). */
let sink: { writeSync(bytes: Uint8Array): number } = Deno.stderr;

/** Send log lines to `file` from now on (the shared service's log). */
export function logToFile(file: { writeSync(bytes: Uint8Array): number }): void {
  sink = file;
}

/** Also told of every line written (the service's dashboard shows a live tail); null: nobody. */
let tap: ((level: LogLevel, text: string) => void) | null = null;

/** Tell `listener` of every log line from now on (null: stop). */
export function tapLog(listener: ((level: LogLevel, text: string) => void) | null): void {
  tap = listener;
}

export function setLogLevel(level: LogLevel): void {
  threshold = LOG_LEVELS.indexOf(level);
}

/** Whether lines of `level` are written now. */
export function logsAt(level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= threshold;
}

function emit(level: LogLevel, parts: unknown[]): void {
  if (LOG_LEVELS.indexOf(level) < threshold) return;
  const text = parts.map((p) => typeof p === "string" ? p : Deno.inspect(p)).join(" ");
  tap?.(level, text);
  try {
    sink.writeSync(encoder.encode(`[sextant ${level}] ${text}\n`));
  } catch {
    // stderr closed: nothing sensible left to do with a log line.
  }
}

export const log = {
  debug: (...parts: unknown[]) => emit("debug", parts),
  info: (...parts: unknown[]) => emit("info", parts),
  warn: (...parts: unknown[]) => emit("warn", parts),
  error: (...parts: unknown[]) => emit("error", parts),
};
