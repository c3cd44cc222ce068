/**
 * test_project: runs the project's tests with its own runner and returns structured failures.
 * @module
 */
import { z } from "../../deps.ts";
import { planTests } from "../../toolchain/test_plans.ts";
import {
  dedupeDiagnostics,
  type Diagnostic,
  sortDiagnostics,
  type TestFailure,
} from "../../toolchain/types.ts";
import { defineTool } from "../tool.ts";
import { projectNameParam } from "../shared/params.ts";
import { runPlan, seconds, shownCommand, tailText } from "./plans.ts";
import { projectToolchains } from "./plans.ts";

interface RunEntry {
  toolchain: string;
  status: "passed" | "failed" | "build_failed" | "no_tests" | "timed_out" | "skipped";
  command?: string;
  exit_code?: number | null;
  duration_s?: number;
  passed?: number;
  failed?: number;
  ignored?: number;
  failures?: TestFailure[];
  build_errors?: Diagnostic[];
  reason?: string;
  note?: string;
  output_tail?: string;
}

const MAX_FAILURES = 50;

const MAX_MESSAGE = 2000;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

export const testProject = defineTool({
  name: "test_project",
  description: "Runs the project's tests (cargo, deno, vitest/jest, pytest, go): counts, each " +
    "failure's message and location, the output's tail. Runs project code (conftest.py, " +
    "build.rs).",
  params: {
    project_name: projectNameParam,
    test_name: z.string().optional().describe(
      "Name filter (pytest: -k expression or node id).",
    ),
    backtrace: z.boolean().default(false).describe(
      "Backtraces of failures (Rust).",
    ),
    max_answer_chars: z.number().int().default(-1).describe(
      "-1: the configured limit; over it, the output's tail first.",
    ),
  },
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const { project, toolchains } = projectToolchains(ctx, args.project_name);
    const runs: RunEntry[] = [];
    for (const toolchain of toolchains) {
      const plan = await planTests(project.root, toolchain, {
        testName: args.test_name,
        backtrace: args.backtrace,
      });
      if ("skipped" in plan) {
        runs.push({ toolchain: plan.toolchain, status: "skipped", reason: plan.skipped });
        continue;
      }
      const result = await runPlan(ctx, project, plan);
      const { summary, buildErrors } = plan.parse(result, project.root);
      const total = summary.passed + summary.failed + summary.ignored;
      const status: RunEntry["status"] = result.timedOut
        ? "timed_out"
        : buildErrors.length > 0 && summary.passed + summary.failed === 0
        ? "build_failed"
        : summary.failed > 0 || result.code !== 0
        ? "failed"
        : summary.recognized && total === 0
        ? "no_tests"
        : "passed";
      const entry: RunEntry = {
        toolchain: plan.toolchain,
        status,
        command: shownCommand(plan),
        exit_code: result.code,
        duration_s: seconds(result.durationMs),
        passed: summary.passed,
        failed: summary.failed,
        ignored: summary.ignored,
        failures: summary.failures.slice(0, MAX_FAILURES).map((f) => ({
          ...f,
          message: clip(f.message, MAX_MESSAGE),
        })),
      };
      if (buildErrors.length > 0) {
        entry.build_errors = sortDiagnostics(dedupeDiagnostics(buildErrors));
      }
      if (plan.note) entry.note = plan.note;
      if (!summary.recognized) {
        entry.note = [entry.note, "The runner's summary was not recognised; see output_tail."]
          .filter(Boolean).join(" ");
      }
      entry.output_tail = tailText(result);
      runs.push(entry);
    }
    const ran = runs.filter((r) => r.status !== "skipped");
    const totals = {
      passed: ran.reduce((n, r) => n + (r.passed ?? 0), 0),
      failed: ran.reduce((n, r) => n + (r.failed ?? 0), 0),
      ignored: ran.reduce((n, r) => n + (r.ignored ?? 0), 0),
    };
    const answer = (shown: RunEntry[]) =>
      JSON.stringify({
        project: project.name,
        ok: ran.length > 0 && ran.every((r) => r.status === "passed"),
        summary: totals,
        runs: shown,
      });
    return {
      text: answer(runs),
      shorter: [
        {
          note: "(raw output tails left out to fit max_answer_chars)",
          text: () => answer(runs.map(({ output_tail: _, ...rest }) => rest)),
        },
        {
          note: "(failure messages shortened to fit max_answer_chars)",
          text: () =>
            answer(runs.map(({ output_tail: _, ...rest }) => ({
              ...rest,
              failures: (rest.failures ?? []).slice(0, 10).map((f) => ({
                ...f,
                message: clip(f.message, 200),
              })),
              ...(rest.build_errors ? { build_errors: rest.build_errors.slice(0, 10) } : {}),
            }))),
        },
      ],
    };
  },
});
