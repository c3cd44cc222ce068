/**
 * Texts of the workflow tools (onboarding, the thinking tools, summaries, hand-over) and of the
 * messages around memories and project activation. Short, concrete, written for Sextant's tools.
 * @module
 */

/** What the manual is called in messages; `initial_instructions` returns it. */
export const MANUAL_NAME = "Sextant Instructions Manual";

/** The operating system's name as users know it, for command suggestions. */
export function osName(os: typeof Deno.build.os = Deno.build.os): string {
  switch (os) {
    case "darwin":
      return "macOS";
    case "windows":
      return "Windows";
    case "linux":
      return "Linux";
    default:
      return os;
  }
}

/** The onboarding instructions for a project. */
export function onboardingPrompt(projectName: string, os: string = osName()): string {
  return [
    `You are onboarding onto project '${projectName}' (the user works on ${os}). Build a compact, ` +
    "reliable picture of the project and save it as memories, so that later conversations can " +
    "start on a task at once.",
    "",
    "Find out, with the tools (symbol overviews rather than whole-file reads; read only what you " +
    "need):",
    "1. Purpose: what the project does and for whom (README, package manifests).",
    "2. Layout: main folders, entry points, where the tests live, generated or vendored code " +
    "to leave alone.",
    "3. Stack: languages, frameworks, build system, key dependencies.",
    `4. Commands: how to build, test, lint, format and run it on ${os} (manifests, CI files, ` +
    "scripts, task runners).",
    "5. Conventions: code style, naming, error handling, test patterns, commit rules.",
    "6. Definition of done: what must pass before a task counts as complete (tests, type " +
    "checks, linters, formatting).",
    "",
    "Then save what you found with write_memory, one topic per memory, short and factual; for " +
    "example project_overview, suggested_commands, code_style_and_conventions and " +
    "task_completion_checklist.",
    "Write down only what you confirmed; mark anything else as unverified. If something " +
    "essential stays unclear, ask the user.",
  ].join("\n");
}

/** Returned by onboarding when memories cannot be written in the current modes. */
export const ONBOARDING_WITHOUT_MEMORIES =
  "Onboarding skipped: write_memory is not active in the current context and modes, so its " +
  "results could not be saved. Explore the project as the task requires.";

/** check_onboarding_performed, when the project has no memories. */
export function onboardingNotPerformed(onboardingAvailable: boolean): string {
  return onboardingAvailable
    ? "Onboarding not performed yet: the project has no memories. Call the `onboarding` tool " +
      "before you start on the task."
    : "Onboarding not performed yet: the project has no memories (the onboarding tool is not " +
      "active in the current modes). Explore the project as the task requires.";
}

/** check_onboarding_performed, when memories exist. */
export function onboardingPerformed(memoryNames: readonly string[]): string {
  return "Onboarding was already performed. The project's memories are listed below. Do not " +
    "read them all now: read one with read_memory when its name suggests it matters for the " +
    `task at hand.\n\n${JSON.stringify(memoryNames)}`;
}

export const THINK_ABOUT_COLLECTED_INFORMATION = [
  "Pause and check what you have gathered:",
  "- Do you have everything the task needs? Name what is still missing or uncertain.",
  "- Did each search return what you expected? An empty or odd result often means a wrong " +
  "name, path or glob: retry differently before concluding that something does not exist.",
  "- For code you will change: do you know its callers (find_referencing_symbols) and the " +
  "tests that cover it?",
  "- Is there a cheaper way to get what is missing: a symbol overview, one targeted " +
  "find_symbol, a narrower search_for_pattern?",
  "Get what is missing now. What cannot be found, say so; do not assume it.",
].join("\n");

export const THINK_ABOUT_TASK_ADHERENCE = [
  "Before you change anything, check that you are still doing what was asked:",
  "- Restate the task in one sentence. Does the planned change serve it, and only it?",
  "- Drop refactorings, renames and clean-ups nobody asked for.",
  "- Does the change follow the project's conventions (see the memories, if any) and keep " +
  "behaviour the task did not mention?",
  "- Is the scope complete: every place that needs the change (references, tests, docs), and " +
  "nothing else?",
  "- If the task turned out to differ from what the user described, or a decision is theirs, " +
  "ask before editing.",
].join("\n");

export const THINK_ABOUT_WHETHER_YOU_ARE_DONE = [
  "Check whether the task is really done:",
  "- Go through the request point by point: is each one handled?",
  "- Is the result verified the way this project verifies work (tests, type checks, linters, " +
  "a build; see the memories, e.g. a completion checklist)? If you could not run them, say so.",
  "- Are all references to what you changed updated (find_referencing_symbols)?",
  "- No leftovers: debug output, temporary files, commented-out code, unrelated edits.",
  "- Are docs and tests updated where the change needs it?",
  "If anything is open, finish it, or tell the user exactly what remains.",
].join("\n");

export const SUMMARIZE_CHANGES = [
  "Summarize your work for the user:",
  "1. What changed and why, grouped by component or file; name new, moved and deleted files.",
  "2. How you verified it (which tests and checks ran, and their outcome), and what is not " +
  "verified.",
  "3. What the user should know: changed behaviour, risks, follow-up work, decisions you made " +
  "for them.",
  "Be brief; name symbols and files instead of pasting code.",
].join("\n");

export const PREPARE_FOR_NEW_CONVERSATION = [
  "The user wants to continue in a new conversation. Save a hand-over with write_memory (for " +
  "example 'handover_<topic>') from which a fresh session can carry on without this one:",
  "- the task and its goal, in the user's words;",
  "- what is done (files and symbols changed) and what is verified;",
  "- what remains, in order, with open questions and pending decisions;",
  "- findings worth keeping: where things are, pitfalls, commands that worked.",
  "Be concise and concrete. Then tell the user the memory's name, so the next conversation can " +
  "start by reading it.",
].join("\n");
