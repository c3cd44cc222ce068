/**
 * check_project and test_project (seed 000, generalised to every toolchain), project_info and
 * dependency_graph (seed 003, for every language). The toolchain layer (src/toolchain/) knows
 * the commands and their output; these tools run them with progress and cancellation.
 * @module
 */
import { basename } from "node:path";
import { z } from "../deps.ts";
import { ToolError } from "../errors.ts";
import type { Project } from "../project/project.ts";
import { type CheckPlan, planCheck, type SkippedPlan } from "../toolchain/checks.ts";
import { detectToolchains } from "../toolchain/detect.ts";
import { buildDependencyGraph } from "../toolchain/graph/graph.ts";
import { projectInfo } from "../toolchain/manifest.ts";
import { CommandNotFoundError, runCommand, type RunResult } from "../toolchain/run.ts";
import { planTests, type TestPlan } from "../toolchain/test_plans.ts";
import {
  dedupeDiagnostics,
  type Diagnostic,
  SEVERITIES,
  type Severity,
  sortDiagnostics,
  type TestFailure,
} from "../toolchain/types.ts";
import { fixesFor, fixesNote } from "./check_fixes.ts";
import { projectNameParam, selectProject } from "./project_tools.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "./tool.ts";

/**
 * The project a tool with `project_name` works on: smart project selection (seed 000) over the
 * projects loaded in the session (see project_tools.ts).
 */
export function resolveProject(ctx: ToolContext, projectName: string | undefined): Project {
  return selectProject(ctx, projectName);
}

function noToolchain(project: Project): ToolError {
  return new ToolError(
    `No known toolchain in project '${project.name}': looked for Cargo.toml, deno.json, ` +
      "tsconfig.json, package.json, pyproject.toml (or setup.py, requirements.txt), go.mod, " +
      "*.gpr and alire.toml in its root folder.",
  );
}

/** The command as the agent could type it: the program's name instead of its full path. */
function displayCommand(argv: string[]): string {
  const [program = "", ...args] = argv;
  return [basename(program), ...args].map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a))
    .join(" ");
}

/** Run a plan in the project root with progress, cancellation and the tool timeout. */
async function runPlan(
  ctx: ToolContext,
  project: Project,
  plan: CheckPlan | TestPlan,
): Promise<RunResult> {
  // "cargo test", "python3 -m pytest": the program and what it was asked to do.
  const label = displayCommand(plan.argv.slice(0, plan.argv[1] === "-m" ? 3 : 2));
  await ctx.progress(0, undefined, `${label}: started`);
  try {
    return await runCommand(plan.argv, {
      cwd: project.root,
      env: plan.env,
      signal: ctx.signal,
      timeoutMs: project.settings.tool_timeout * 1000,
      ...(plan.keepInTail ? { keepInTail: plan.keepInTail } : {}),
      onProgress: ({ lines, elapsedMs, lastLine }) => {
        const seconds = Math.round(elapsedMs / 1000);
        const last = lastLine.trim().slice(0, 100);
        void ctx.progress(
          seconds,
          undefined,
          `${label}: ${seconds} s, ${lines} lines of output${last ? `; ${last}` : ""}`,
        );
      },
    });
  } catch (error) {
    if (error instanceof CommandNotFoundError) throw new ToolError(error.message);
    throw error;
  }
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;
const tailText = (result: RunResult) => result.tail.join("\n").trim();

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
    "Runs the project's own checker and returns its diagnostics as JSON: file (project-" +
    "relative), 1-based line/column, severity, message, code, source, with counts by severity. " +
    "Rust: cargo check; Deno: deno check; TypeScript: tsc --noEmit; Python: pyright; Go: go vet; " +
    "Ada: gprbuild. Every toolchain found in the project root is checked. include_fixes adds " +
    "the language server's quick fixes, with ids for execute_code_action. May write build " +
    "output (target/, obj/). Reports progress and stops the checker when cancelled.",
  params: {
    project_name: projectNameParam,
    include_fixes: z.boolean().default(false).describe(
      "Also list the language server's quick fixes per error/warning (first 50), each with an " +
        "id for execute_code_action.",
    ),
    max_answer_chars: z.number().int().default(-1).describe(
      "Answer size limit; -1 means the configured default. Over it, warnings are dropped first.",
    ),
  },
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const project = resolveProject(ctx, args.project_name);
    const toolchains = detectToolchains(project.root);
    if (toolchains.length === 0) throw noToolchain(project);
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
  description: "Runs the project's tests and returns JSON: passed/failed/ignored counts, each " +
    "failure's name, message and file:line when the output gives them, build errors, and the " +
    "last ~60 lines of raw output. Rust: cargo test; Deno: deno test -A; Node: vitest, jest or " +
    "npm test; Python: pytest; Go: go test. test_name runs only matching tests. Reports progress; " +
    "cancelling kills the whole test process tree.",
  params: {
    project_name: projectNameParam,
    test_name: z.string().optional().describe(
      "Only tests matching this (cargo/deno/vitest/go: name filter; pytest: -k expression or " +
        "node id like tests/test_a.py::test_b).",
    ),
    backtrace: z.boolean().default(false).describe(
      "Print backtraces of failures (Rust: RUST_BACKTRACE=1).",
    ),
    max_answer_chars: z.number().int().default(-1).describe(
      "Answer size limit; -1 means the configured default. Over it, the output tail goes first.",
    ),
  },
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const project = resolveProject(ctx, args.project_name);
    const toolchains = detectToolchains(project.root);
    if (toolchains.length === 0) throw noToolchain(project);
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
        command: displayCommand(plan.argv),
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

export const projectInfoTool = defineTool({
  name: "project_info",
  description: "Describes the project's build setup as JSON, per toolchain found in its root: " +
    "Cargo.toml (package, version, targets, dependencies), package.json / deno.json (name, " +
    "scripts or tasks, dependencies), tsconfig.json, pyproject.toml, go.mod, GPR files (source " +
    "and object dirs, main units, Ada version) and alire.toml. Reads files only.",
  params: { project_name: projectNameParam },
  readOnly: true,
  handler(args, ctx) {
    const project = resolveProject(ctx, args.project_name);
    return Promise.resolve(JSON.stringify(projectInfo(project.root, project.name)));
  },
});

export const dependencyGraph = defineTool({
  name: "dependency_graph",
  description: "Module dependency graph as JSON {nodes, edges}: Ada with clauses between units, " +
    "TypeScript/JavaScript relative imports, Python imports of project modules, Rust mod and " +
    "crate:: paths, Go imports within the module. relative_path limits it to a folder, or to " +
    "what one file depends on (transitively) and what depends on it. Reads files only.",
  params: {
    relative_path: z.string().default("").describe(
      "A folder to limit the graph to, or a file to centre it on; empty for the whole project.",
    ),
    include_external: z.boolean().default(false).describe(
      "Also show imports of modules outside the project (standard library, packages).",
    ),
    max_answer_chars: z.number().int().default(-1),
  },
  markers: ["optional"],
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const graph = await buildDependencyGraph(project, {
      relativePath: args.relative_path,
      includeExternal: args.include_external,
      signal: ctx.signal,
    });
    const compact = () => {
      const adjacency: Record<string, string[]> = {};
      for (const edge of graph.edges) (adjacency[edge.from] ??= []).push(edge.to);
      return JSON.stringify({ languages: graph.languages, depends_on: adjacency });
    };
    return {
      text: JSON.stringify(graph),
      shorter: [{
        note: "(compact form: node -> dependencies, to fit max_answer_chars)",
        text: compact,
      }],
    };
  },
});

/** The toolchain tools, for the registry. */
export const TOOLCHAIN_TOOLS = [checkProject, testProject, projectInfoTool, dependencyGraph];
