/**
 * check_project: runs the project's own checkers (cargo, deno, tsc, pyright, go vet, gprbuild)
 * and returns their diagnostics in one shape, optionally with the language server's fixes as
 * executable code-action ids.
 * @module
 */
import { z } from "../../deps.ts";
import { type CheckPlan, planCheck, type SkippedPlan } from "../../toolchain/checks.ts";
import {
  dedupeDiagnostics,
  type Diagnostic,
  SEVERITIES,
  type Severity,
  sortDiagnostics,
} from "../../toolchain/types.ts";
import { fixesFor, fixesNote } from "./fixes.ts";
import { defineTool, type ToolAnswer } from "../tool.ts";
import { projectNameParam } from "../shared/params.ts";
import { displayCommand, runPlan, seconds, tailText } from "./plans.ts";
import { projectToolchains } from "./plans.ts";

function countBySeverity(diagnostics: Diagnostic[]): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}

interface CheckEntry {
  toolchain: string;
  status: "ok" | "errors" | "failed" | "timed_out" | "skipped";
  command?: string;
  exit_code?: number | null;
  duration_s?: number;
  diagnostics?: number;
  reason?: string;
  note?: string;
  output_tail?: string;
}

export const checkProject = defineTool({
  name: "check_project",
  description:
    "Runs the project's own checker (cargo, deno, tsc, pyright, go vet, gprbuild); diagnostics " +
    "with 1-based lines, and with include_fixes quick-fix ids for execute_code_action. " +
    "Build scripts run too.",
  params: {
    project_name: projectNameParam,
    include_fixes: z.boolean().default(false).describe(
      "Add the quick fixes of each error and warning (first 50).",
    ),
    max_answer_chars: z.number().int().default(-1).describe(
      "Answer limit; -1: the configured one. Over it, warnings go first.",
    ),
  },
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const { project, toolchains } = projectToolchains(ctx, args.project_name);
    const checks: CheckEntry[] = [];
    let diagnostics: Diagnostic[] = [];
    // tsc checks a TypeScript package; its package.json adds nothing to check.
    const checked = toolchains.some((t) => t.id === "typescript")
      ? toolchains.filter((t) => t.id !== "node")
      : toolchains;
    for (const toolchain of checked) {
      const plan: CheckPlan | SkippedPlan = planCheck(project.root, toolchain);
      if ("skipped" in plan) {
        checks.push({ toolchain: plan.toolchain, status: "skipped", reason: plan.skipped });
        continue;
      }
      const result = await runPlan(ctx, project, plan);
      const parsed = plan.parse(result, project.root);
      const found = dedupeDiagnostics(parsed ?? []);
      const errors = found.filter((d) => d.severity === "error").length;
      const entry: CheckEntry = {
        toolchain: plan.toolchain,
        status: result.timedOut
          ? "timed_out"
          : errors > 0
          ? "errors"
          : result.code !== 0
          ? "failed"
          : "ok",
        command: displayCommand(plan.argv),
        exit_code: result.code,
        duration_s: seconds(result.durationMs),
        diagnostics: found.length,
      };
      if (plan.note) entry.note = plan.note;
      // Without parsed errors a failure must still be explained: show what the tool said.
      if (entry.status === "failed" || entry.status === "timed_out" || parsed === null) {
        entry.output_tail = tailText(result);
      }
      checks.push(entry);
      diagnostics.push(...found);
    }
    diagnostics = sortDiagnostics(diagnostics);
    const ran = checks.filter((c) => c.status !== "skipped");
    const summary = countBySeverity(diagnostics);
    const fixes = args.include_fixes ? await fixesFor(ctx, project, diagnostics) : null;
    const withFixes = (d: Diagnostic) => {
      const found = fixes?.fixes.get(d);
      return found ? { ...d, available_fixes: found } : d;
    };
    const answer = (shown: Diagnostic[], omitted?: string) =>
      JSON.stringify({
        project: project.name,
        ok: ran.length > 0 && ran.every((c) => c.status === "ok"),
        summary,
        checks,
        ...(fixes ? { note: fixesNote(fixes) } : {}),
        ...(omitted ? { omitted } : {}),
        diagnostics: shown.map(withFixes),
      });
    const errors = diagnostics.filter((d) => d.severity === "error");
    const result: ToolAnswer = {
      text: answer(diagnostics),
      shorter: [
        {
          note: "(warnings and notes left out to fit max_answer_chars)",
          text: () => answer(errors, `${diagnostics.length - errors.length} non-error diagnostics`),
        },
        ...[50, 10, 1].map((n) => ({
          note: `(only the first ${n} errors shown to fit max_answer_chars)`,
          text: () =>
            answer(
              errors.slice(0, n),
              `${diagnostics.length - Math.min(n, errors.length)} diagnostics`,
            ),
        })),
      ],
    };
    return result;
  },
});
