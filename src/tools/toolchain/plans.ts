/**
 * Running a toolchain plan (a check or a test command) with progress and cancellation, and the
 * small formatting helpers check_project and test_project share.
 * @module
 */
import { basename } from "node:path";
import { ToolError } from "../../errors.ts";
import type { Project } from "../../project/project.ts";
import type { CheckPlan } from "../../toolchain/checks.ts";
import { CommandNotFoundError, runCommand, type RunResult } from "../../toolchain/run.ts";
import type { TestPlan } from "../../toolchain/test_plans.ts";
import type { ToolContext } from "../tool.ts";
import { type DetectedToolchain, detectToolchains } from "../../toolchain/detect.ts";
import { selectProject } from "../shared/project_selection.ts";

/**
 * The project a toolchain tool works on (smart selection by `project_name`) and its toolchains;
 * a ToolError naming what was looked for when it has none.
 */
export function projectToolchains(
  ctx: ToolContext,
  projectName: string | undefined,
): { project: Project; toolchains: DetectedToolchain[] } {
  const project = selectProject(ctx, projectName);
  const toolchains = detectToolchains(project.root);
  if (toolchains.length === 0) throw noToolchain(project);
  return { project, toolchains };
}

export function noToolchain(project: Project): ToolError {
  return new ToolError(
    `No known toolchain in project '${project.name}': looked for Cargo.toml, deno.json, ` +
      "tsconfig.json, package.json, pyproject.toml (or setup.py, requirements.txt), go.mod, " +
      "CMakeLists.txt (or a Makefile beside C/C++ sources), *.gpr and alire.toml in its root " +
      "folder.",
  );
}

/** The command as the agent could type it: the program's name instead of its full path. */
export function displayCommand(argv: string[]): string {
  const [program = "", ...args] = argv;
  return [basename(program), ...args].map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a))
    .join(" ");
}

/** A plan's command as the answer shows it: its `display` form (as written) when it has one. */
export function shownCommand(plan: { argv: string[]; display?: string[] }): string {
  if (!plan.display) return displayCommand(plan.argv);
  return plan.display.map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

/** Run a plan in the project root with progress, cancellation and the tool timeout. */
export async function runPlan(
  ctx: ToolContext,
  project: Project,
  plan: CheckPlan | TestPlan,
): Promise<RunResult> {
  // "cargo test", "python3 -m pytest": the program and what it was asked to do.
  const shown = plan.display ?? plan.argv;
  const label = displayCommand(shown.slice(0, shown[1] === "-m" ? 3 : 2));
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

export const seconds = (ms: number) => Math.round(ms / 100) / 10;

export const tailText = (result: RunResult) => result.tail.join("\n").trim();
