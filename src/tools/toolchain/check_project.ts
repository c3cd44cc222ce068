/**
 * check_project: runs what the project's own build checks (its declared type-check script, tsc on
 * each config of its build, cargo, deno, pyright, go vet, gprbuild) and returns the diagnostics in
 * one shape, optionally with the language server's fixes as executable code-action ids. It is
 * never ok when nothing was checked.
 * @module
 */
import { z } from "../../deps.ts";
import { type CheckPlan, planChecks, type SkippedPlan } from "../../toolchain/checks.ts";
import {
  dedupeDiagnostics,
  type Diagnostic,
  SEVERITIES,
  type Severity,
  sortDiagnostics,
} from "../../toolchain/types.ts";
import { fixesFor, fixesNote } from "./fixes.ts";
import type { Project } from "../../project/project.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "../tool.ts";
import { projectNameParam } from "../shared/params.ts";
import { runPlan, seconds, shownCommand, tailText } from "./plans.ts";
import { projectToolchains } from "./plans.ts";

function countBySeverity(diagnostics: Diagnostic[]): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}

interface CheckEntry {
  toolchain: string;
  status: "ok" | "errors" | "failed" | "timed_out" | "skipped" | "nothing_checked";
  command?: string;
  /** The config checked (tsconfig.build.json), where a toolchain checks several. */
  config?: string;
  /** How many of the project's files the check read, where the tool says. */
  files?: number;
  exit_code?: number | null;
  duration_s?: number;
  diagnostics?: number;
  reason?: string;
  note?: string;
  output_tail?: string;
}

/** Run one check; its entry in the answer and its diagnostics. */
async function runCheck(
  ctx: ToolContext,
  project: Project,
  plan: CheckPlan,
): Promise<{ entry: CheckEntry; found: Diagnostic[] }> {
  const result = await runPlan(ctx, project, plan);
  const parsed = plan.parse(result, project.root);
  const found = dedupeDiagnostics(parsed ?? []);
  const errors = found.filter((d) => d.severity === "error").length;
  const files = plan.checkedFiles?.(result);
  const entry: CheckEntry = {
    toolchain: plan.toolchain,
    status: result.timedOut
      ? "timed_out"
      : errors > 0
      ? "errors"
      : result.code !== 0
      ? "failed"
      : files === 0
      ? "nothing_checked"
      : "ok",
    command: shownCommand(plan),
    ...(plan.config ? { config: plan.config } : {}),
    ...(files !== undefined ? { files } : {}),
    exit_code: result.code,
    duration_s: seconds(result.durationMs),
    diagnostics: found.length,
  };
  if (entry.status === "nothing_checked") {
    entry.reason = `${shownCommand(plan)} read none of the project's files: nothing was checked.`;
  }
  const note = [plan.note, plan.explain?.(result)].filter(Boolean).join(" ");
  if (note) entry.note = note;
  // Without parsed errors a failure must still be explained: show what the tool said.
  if (entry.status === "failed" || entry.status === "timed_out" || parsed === null) {
    entry.output_tail = tailText(result);
  }
  return { entry, found };
}

export const checkProject = defineTool({
  name: "check_project",
  description:
    "Runs the project's own checks (typecheck script, tsc per tsconfig, cargo, deno, pyright, " +
    "go vet, gprbuild); 1-based diagnostics; include_fixes: fix ids for execute_code_action. " +
    "Build scripts run.",
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
    const plans: Array<CheckPlan | SkippedPlan> = [];
    try {
      for (const toolchain of checked) plans.push(...await planChecks(project.root, toolchain));
      for (const plan of plans) {
        if ("skipped" in plan) {
          checks.push({ toolchain: plan.toolchain, status: "skipped", reason: plan.skipped });
          continue;
        }
        const { entry, found } = await runCheck(ctx, project, plan);
        checks.push(entry);
        diagnostics.push(...found);
      }
    } finally {
      for (const plan of plans) if ("cleanup" in plan) plan.cleanup?.();
    }
    // Several configs that read one file report its errors once each.
    diagnostics = sortDiagnostics(dedupeDiagnostics(diagnostics));
    // A check that read none of the project's files proves nothing: it does not make the answer ok.
    const ran = checks.filter((c) => c.status !== "skipped" && c.status !== "nothing_checked");
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
