/**
 * The system prompt ("instructions"): names the active project, context, modes and the tools
 * actually exposed, and gives short guidance for using them well.
 * @module
 */
import { contextDefinition, modeDefinition } from "../config/toolsets.ts";
import type { Session } from "../session.ts";

export function systemPrompt(session: Session): string {
  const settings = session.project?.settings ?? session.settings;
  const tools = session.activeTools().map((t) => t.name);
  const has = (name: string) => tools.includes(name);
  const lines: string[] = [
    "You are working with Sextant, a code-intelligence server backed by real language servers.",
  ];
  lines.push(
    session.project
      ? `Active project: '${session.project.name}' at ${session.project.root}. ` +
        "Paths in tool arguments are relative to this root."
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
    lines.push(
      "- Edit precisely: read a file before editing it; prefer symbol-level edits, then `edit` " +
        "or replace_content with a unique needle. Edits are atomic: on error nothing changed.",
    );
  }
  lines.push("- Tool errors say what was wrong and what to do; fix the input and retry.");
  const context = safely(() => contextDefinition(settings, session.context).prompt);
  lines.push("", `Context: ${session.context}.${context ? ` ${context}` : ""}`);
  for (const mode of session.modes) {
    const prompt = safely(() => modeDefinition(settings, mode).prompt);
    lines.push(`Mode: ${mode}.${prompt ? ` ${prompt}` : ""}`);
  }
  lines.push("", `Tools available: ${tools.join(", ")}.`);
  return lines.join("\n");
}

function safely(get: () => string | undefined): string | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}
