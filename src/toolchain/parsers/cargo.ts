/**
 * Cargo: compiler messages from `--message-format=json`, and libtest's text output of
 * `cargo test`.
 * @module
 */
import { dirname, join } from "node:path";
import { pathExists, toProjectPath } from "../reported_paths.ts";
import { type Diagnostic, emptySummary, type Severity, type TestSummary } from "../types.ts";

interface CargoSpan {
  file_name: string;
  is_primary: boolean;
  line_start: number;
  line_end: number;
  column_start: number;
  column_end: number;
  label: string | null;
}

interface CargoMessage {
  reason: string;
  manifest_path?: string;
  message?: {
    level: string;
    message: string;
    code: { code: string } | null;
    spans: CargoSpan[];
  };
}

const LEVELS: Record<string, Severity> = {
  "error": "error",
  "error: internal compiler error": "error",
  "warning": "warning",
  "note": "info",
  "help": "hint",
  "failure-note": "info",
};

/** Summary lines rustc adds after the real diagnostics. */
const SUMMARY_MESSAGE =
  /^(aborting due to|could not compile|\d+ warnings? emitted|For more information)/;

/** Find the file of a span: spans are relative to the workspace root, which may lie above. */
function spanFile(root: string, span: CargoSpan, manifestPath: string | undefined): string {
  if (span.file_name.startsWith("/")) return toProjectPath(root, span.file_name);
  if (pathExists(join(root, span.file_name))) return toProjectPath(root, span.file_name);
  let dir = manifestPath ? dirname(manifestPath) : root;
  while (true) {
    if (pathExists(join(dir, span.file_name))) {
      return toProjectPath(root, join(dir, span.file_name));
    }
    const parent = dirname(dir);
    if (parent === dir) return span.file_name;
    dir = parent;
  }
}

/** The compiler diagnostics among cargo's JSON lines (other lines are ignored). */
export function parseCargoMessages(output: string, root: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split("\n")) {
    if (!line.startsWith('{"reason":"compiler-message"')) continue;
    let parsed: CargoMessage;
    try {
      parsed = JSON.parse(line) as CargoMessage;
    } catch {
      continue;
    }
    const message = parsed.message;
    if (!message || SUMMARY_MESSAGE.test(message.message)) continue;
    const severity = LEVELS[message.level] ?? "error";
    const span = message.spans.find((s) => s.is_primary) ?? message.spans[0];
    const text = span?.label ? `${message.message}: ${span.label}` : message.message;
    const diagnostic: Diagnostic = {
      file: span ? spanFile(root, span, parsed.manifest_path) : "",
      line: span?.line_start ?? 0,
      column: span?.column_start ?? 0,
      severity,
      message: text,
      source: "cargo",
    };
    if (span) {
      diagnostic.end_line = span.line_end;
      diagnostic.end_column = span.column_end;
    }
    if (message.code?.code) diagnostic.code = message.code.code;
    diagnostics.push(diagnostic);
  }
  return diagnostics;
}

const RESULT_LINE =
  /^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; \d+ filtered out/;
const SECTION_START = /^---- (.+?) std(?:out|err) ----$/;
// Rust >= 1.73: "thread 'name' (123) panicked at src/lib.rs:24:9:" then the message lines.
const PANIC_NEW = /^thread '.*?'(?: \(\d+\))? panicked at (.+?):(\d+):(\d+):$/;
// Older: "thread 'name' panicked at 'message', src/lib.rs:24:9".
const PANIC_OLD = /^thread '.*?' panicked at '(.*)', (.+?):(\d+):(\d+)$/;

/**
 * Counts and failures from libtest's output (all test binaries of a `cargo test` run added up):
 * the `test result:` lines, and each failed test's panic message and location.
 */
export function parseLibtestOutput(output: string, root: string): TestSummary {
  const summary = emptySummary();
  const lines = output.split("\n");
  const failedNames: string[] = [];
  for (const line of lines) {
    const result = RESULT_LINE.exec(line);
    if (result) {
      summary.recognized = true;
      summary.passed += Number(result[1]);
      summary.failed += Number(result[2]);
      summary.ignored += Number(result[3]);
    }
    const failed = /^test (.+?) \.\.\. FAILED$/.exec(line);
    if (failed) failedNames.push(failed[1]!);
  }
  const details = new Map<
    string,
    { message: string; file?: string; line?: number; column?: number; backtrace?: string }
  >();
  for (let i = 0; i < lines.length; i++) {
    const start = SECTION_START.exec(lines[i]!);
    if (!start) continue;
    const name = start[1]!;
    const body: string[] = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      if (SECTION_START.test(line) || /^failures:$/.test(line) || RESULT_LINE.test(line)) {
        i--;
        break;
      }
      body.push(line);
    }
    details.set(name, parsePanic(body, root));
  }
  for (const name of failedNames) {
    const detail = details.get(name);
    summary.failures.push({ name, ...(detail ?? { message: "" }) });
  }
  return summary;
}

function parsePanic(body: string[], root: string) {
  const detail: {
    message: string;
    file?: string;
    line?: number;
    column?: number;
    backtrace?: string;
  } = {
    message: "",
  };
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    const old = PANIC_OLD.exec(line);
    if (old) {
      detail.message = old[1]!;
      detail.file = toProjectPath(root, old[2]!);
      detail.line = Number(old[3]);
      detail.column = Number(old[4]);
      break;
    }
    const fresh = PANIC_NEW.exec(line);
    if (fresh) {
      detail.file = toProjectPath(root, fresh[1]!);
      detail.line = Number(fresh[2]);
      detail.column = Number(fresh[3]);
      const message: string[] = [];
      for (i++; i < body.length; i++) {
        const next = body[i]!;
        if (/^(stack backtrace:|note: )/.test(next) || next === "") break;
        message.push(next);
      }
      detail.message = message.join("\n");
      break;
    }
  }
  const traceAt = body.findIndex((l) => l === "stack backtrace:");
  if (traceAt >= 0) {
    const frames = body.slice(traceAt + 1).filter((l) => /^\s+\d+: |^\s+at /.test(l));
    detail.backtrace = frames.slice(0, 30).join("\n");
  }
  if (!detail.message) detail.message = body.filter((l) => l.trim()).slice(0, 20).join("\n");
  return detail;
}
