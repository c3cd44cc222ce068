/**
 * Go: `go vet` / `go build` messages (`./file.go:line:col: message`) and the event stream of
 * `go test -json`.
 * @module
 */
import { join } from "node:path";
import { toProjectPath } from "../reported_paths.ts";
import { type Diagnostic, emptySummary, type TestSummary } from "../types.ts";

const LOCATION = /^(?:vet: )?(\S+?\.go):(\d+):(?:(\d+):)? (.*)$/;

/**
 * Diagnostics from `go vet ./...`. Compile errors and vet findings share one format; vet's
 * findings are warnings, the type checker's are errors (`go vet` reports them after a `#` line
 * naming the package and the build failure makes the exit code non-zero).
 */
export function parseGoVet(output: string, root: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split("\n").flatMap(buildOutputLines)) {
    const match = LOCATION.exec(line);
    if (!match) continue;
    const message = match[4]!;
    // vet's analyzers report problems in code that compiles; type errors read like compiler output.
    const isCompileError = line.startsWith("vet: ") ||
      /^(undefined|cannot|invalid|missing|too many|not enough|declared and not used|imported and not used|syntax error|expected|non-)/
        .test(message);
    diagnostics.push({
      file: toProjectPath(root, match[1]!),
      line: Number(match[2]),
      column: Number(match[3] ?? 1),
      severity: isCompileError ? "error" : "warning",
      message,
      source: "go",
    });
  }
  return diagnostics;
}

/**
 * The compiler's lines in a line of output: `go test -json` (Go 1.24 and later) sends a
 * package's build errors as `{"Action":"build-output","Output":"./a.go:3:2: ...\n"}` events;
 * other lines are themselves.
 */
function buildOutputLines(line: string): string[] {
  if (!line.startsWith("{")) return [line];
  try {
    const event = JSON.parse(line) as Partial<GoTestEvent>;
    return event.Action === "build-output" && event.Output ? event.Output.split("\n") : [];
  } catch {
    return [line];
  }
}

interface GoTestEvent {
  Action: string;
  Package?: string;
  Test?: string;
  Output?: string;
}

const FAILURE_LOCATION = /^\s+(\S+?\.go):(\d+): (.*)$/;

/**
 * Counts and failures from `go test -json` events (top-level tests and subtests alike).
 * `modulePath` (from go.mod) maps package import paths to folders for failure locations.
 */
export function parseGoTestJson(output: string, root: string, modulePath = ""): TestSummary {
  const summary = emptySummary();
  const outputs = new Map<string, string[]>();
  const packageDir = (pkg: string) =>
    modulePath && pkg.startsWith(modulePath + "/")
      ? join(root, pkg.slice(modulePath.length + 1))
      : root;
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    let event: GoTestEvent;
    try {
      event = JSON.parse(line) as GoTestEvent;
    } catch {
      continue;
    }
    summary.recognized = true;
    if (!event.Test) continue;
    const key = `${event.Package ?? ""}\0${event.Test}`;
    if (event.Action === "output" && event.Output) {
      const lines = outputs.get(key) ?? [];
      lines.push(event.Output.replace(/\n$/, ""));
      outputs.set(key, lines);
    } else if (event.Action === "pass") {
      summary.passed++;
    } else if (event.Action === "skip") {
      summary.ignored++;
    } else if (event.Action === "fail") {
      summary.failed++;
      const lines = outputs.get(key) ?? [];
      const located = lines.map((l) => FAILURE_LOCATION.exec(l)).find((m) => m !== null);
      const message = lines.filter((l) => !/^(=== RUN|--- FAIL|=== PAUSE|=== CONT)/.test(l.trim()))
        .map((l) => l.trim()).filter(Boolean).slice(0, 12).join("\n");
      const failure: TestSummary["failures"][number] = { name: event.Test, message };
      if (located) {
        // go test prints the file name relative to the package directory.
        failure.file = toProjectPath(root, located[1]!, packageDir(event.Package ?? ""));
        failure.line = Number(located[2]);
      }
      summary.failures.push(failure);
    }
  }
  return summary;
}
