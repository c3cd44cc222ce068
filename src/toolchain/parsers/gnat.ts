/**
 * GNAT and gprbuild: `file:line:col: error: message` (also `warning:`, `info:`, `(style)`, and
 * the older form without a severity word, which is an error).
 * @module
 */
import { toProjectPath } from "../reported_paths.ts";
import type { Diagnostic, Severity } from "../types.ts";

const LOCATION = /^(.+?):(\d+):(\d+): (.*)$/;

/**
 * Diagnostics from a gprbuild run. `resolveFile` maps a file name as printed (a bare name
 * unless `-gnatef` was given) to a project path. A message continuing the previous one at the
 * same place (GNAT splits "expected type X / found type Y") is merged into it.
 */
export function parseGnat(
  output: string,
  root: string,
  resolveFile: (name: string) => string = (name) => toProjectPath(root, name),
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split("\n")) {
    const match = LOCATION.exec(line.trimEnd());
    if (!match) continue;
    let text = match[4]!;
    let severity: Severity = "error";
    let code: string | undefined;
    const kind = /^(error|warning|info|low warning|medium warning|high warning|check|style): (.*)$/
      .exec(text);
    if (kind) {
      text = kind[2]!;
      severity = kind[1] === "error" || kind[1] === "high warning"
        ? "error"
        : kind[1] === "info"
        ? "info"
        : "warning";
      if (kind[1] === "style") code = "style";
    } else if (text.startsWith("(style) ")) {
      severity = "warning";
      code = "style";
      text = text.slice("(style) ".length);
    }
    const switchTag = /\s+\[(-gnat[\w.]+|-gnaty\w*|enabled by default)\]$/.exec(text);
    if (switchTag) {
      code ??= switchTag[1];
      text = text.slice(0, switchTag.index);
    }
    const file = resolveFile(match[1]!);
    const previous = diagnostics[diagnostics.length - 1];
    if (
      previous && previous.file === file && previous.line === Number(match[2]) &&
      previous.column === Number(match[3]) && previous.severity === severity
    ) {
      previous.message += `; ${text}`;
      continue;
    }
    const diagnostic: Diagnostic = {
      file,
      line: Number(match[2]),
      column: Number(match[3]),
      severity,
      message: text,
      source: "gprbuild",
    };
    if (code) diagnostic.code = code;
    diagnostics.push(diagnostic);
  }
  return diagnostics;
}
