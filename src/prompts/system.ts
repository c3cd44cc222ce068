/**
 * The system prompt ("instructions", the 'Sextant Instructions Manual' that initial_instructions
 * returns): names the active project, context, modes and the tools actually exposed, and gives
 * short guidance for using them well. Guidance for a tool appears only when the tool is exposed.
 * @module
 */
import { contextDefinition, modeDefinition } from "../config/toolsets.ts";
import type { Session } from "../session/session.ts";
import { MANUAL_NAME } from "./workflow.ts";

/** Options of {@linkcode systemPrompt}. */
export interface SystemPromptOptions {
  /**
   * The project is not chosen yet: it follows the client's roots (or the folder Sextant was
   * started in), which are asked for once the session has started.
   */
  projectPending?: boolean;
}

/** The system prompt for the session's current state. */
export function systemPrompt(session: Session, options: SystemPromptOptions = {}): string {
  const settings = session.project?.settings ?? session.settings;
  const tools = session.activeTools().map((t) => t.name);
  const has = (name: string) => tools.includes(name);
  const lines: string[] = [
    `# ${MANUAL_NAME}`,
    "",
    "You are working with Sextant, a code-intelligence server backed by real language servers.",
  ];
  lines.push(
    session.project
      ? `Active project: '${session.project.name}' at ${session.project.root}. ` +
        "Paths in tool arguments are relative to this root."
      : options.projectPending
      ? "The active project is your workspace's root folder, opened as the session starts " +
        "(get_current_config names it); activate_project chooses another."
      : "No project is active yet: call activate_project with a path or registered name.",
  );
  lines.push("", "How to work well:");
  if (has("get_symbols_overview") || has("find_symbol")) {
    lines.push(
      "- Understand code by symbols before reading whole files: get_symbols_overview for a " +
        "file, find_symbol (with include_body only when you need the code), " +
        "find_referencing_symbols for usages.",
    );
  }
  if (has("search_for_pattern")) {
    lines.push("- Use search_for_pattern for text that is not a symbol; restrict it with globs.");
  }
  if (has("edit") || has("replace_content")) {
    const textEdits = [has("edit") ? "`edit`" : "", has("replace_content") ? "replace_content" : ""]
      .filter((name) => name !== "").join(" or ");
    lines.push(
      "- Edit precisely: read a file before editing it; prefer symbol-level edits, then " +
        `${textEdits} with a unique needle. Edits are atomic: on error nothing changed.`,
    );
  }
  if (has("check_onboarding_performed") && has("list_memories")) {
    lines.push(
      "- Project memories hold what earlier conversations learned (commands, conventions, " +
        "layout). After activating a project, call check_onboarding_performed; read a memory " +
        "only when its name suggests it matters for the task.",
    );
  } else if (has("list_memories")) {
    lines.push(
      "- Project memories (list_memories, read_memory) hold what earlier sessions learned.",
    );
  }
  const thinking = ["think_about_collected_information", "think_about_task_adherence"];
  if (thinking.every(has)) {
    lines.push(
      "- Call think_about_collected_information after a series of searches, " +
        "think_about_task_adherence before you change code" +
        (has("think_about_whether_you_are_done")
          ? ", and think_about_whether_you_are_done when you believe the task is complete."
          : "."),
    );
  }
  if (has("execute_shell_command") && session.settings.enable_shell) {
    lines.push(
      "- execute_shell_command runs short, non-interactive commands (tests, builds) in the " +
        "project; never start servers or anything that waits for input.",
    );
  } else if (has("execute_shell_command")) {
    lines.push(
      "- execute_shell_command is switched off; when a command must run, give it to the user " +
        "(they can enable the tool with enable_shell in the global config or --enable-shell).",
    );
  }
  if (has("switch_modes")) {
    lines.push("- switch_modes changes the way of working (e.g. planning hides editing tools).");
  }
  lines.push(...codeActionGuidance(has));
  lines.push(
    "- max_answer_chars: -1 (the default) means the configured limit; a longer answer is " +
      "refused or shortened with a note, so narrow the request rather than raise the limit.",
  );
  lines.push("- Tool errors say what was wrong and what to do; fix the input and retry.");
  const context = safely(() => contextDefinition(settings, session.context).prompt);
  lines.push("", `Context: ${session.context}.${context ? ` ${context}` : ""}`);
  for (const mode of session.modes) {
    const prompt = safely(() => modeDefinition(settings, mode).prompt);
    lines.push(`Mode: ${mode}.${prompt ? ` ${prompt}` : ""}`);
  }
  lines.push("", `Tools available: ${tools.join(", ")}.`);
  lines.push(
    "",
    `Your session id is \`${session.id}\`. Pass it as the \`session\` parameter to tools that ` +
      "take one (repl, activate_project).",
  );
  return lines.join("\n");
}

/**
 * The check-fix loop of the dev-tools workflow, moved here from the tools' descriptions: which tool gives the
 * ids, which lists them, which applies them.
 */
function codeActionGuidance(has: (name: string) => boolean): string[] {
  if (!has("execute_code_action")) return [];
  const sources = [
    has("check_project") ? "check_project(include_fixes=true) (fixes per diagnostic)" : "",
    has("code_actions") ? "code_actions (a range, symbol or diagnostic)" : "",
    has("rename_symbol") ? "rename_symbol(preview=true)" : "",
  ].filter(Boolean);
  const lines = [
    `- Fixes and refactorings are code actions with ids from ${sources.join(", ")}; ` +
    "execute_code_action applies one (all files or none; refused once a file it touches " +
    "changed).",
  ];
  if (has("list_code_actions")) {
    lines.push(
      "- After an edit through Sextant the project's fixes are refreshed: list_code_actions " +
        "shows the current ones (stale ids are dropped); check again until clean.",
    );
  }
  return lines;
}

function safely(get: () => string | undefined): string | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}
