/**
 * Tool selection: which tools a session exposes, from the tool list, the context, the modes and
 * the settings' `included_tools`/`excluded_tools` and `read_only`. The contexts and modes
 * themselves are data in toolsets.ts. Selection needs of a tool only its name and markers
 * ({@linkcode SelectableTool}), so settings, and the session that applies them, know nothing of
 * what a tool does (tools/tool.ts).
 * @module
 */
import { contextDefinition, modeDefinition } from "./toolsets.ts";
import type { Marker, Settings, ToolSetDefinition } from "./schema.ts";

/** What selection reads of a tool. */
export interface SelectableTool {
  readonly name: string;
  readonly markers: readonly Marker[];
}

export interface SelectOptions {
  settings: Settings;
  context: string;
  modes: readonly string[];
}

/** The layers of a selection, in the order they apply. */
function layers(options: SelectOptions): ToolSetDefinition[] {
  const { settings } = options;
  return [
    contextDefinition(settings, options.context),
    { included_tools: settings.included_tools, excluded_tools: settings.excluded_tools },
    ...options.modes.map((m) => modeDefinition(settings, m)),
  ];
}

function matches(
  tool: SelectableTool,
  names?: readonly string[],
  markers?: readonly Marker[],
): boolean {
  return (names?.includes(tool.name) ?? false) ||
    tool.markers.some((m) => markers?.includes(m) ?? false);
}

/**
 * The exposed tool set. It starts with every tool not marked optional; then the context, the
 * settings' `included_tools`/`excluded_tools`, and each mode apply in that order, each first
 * adding what it includes and then removing what it excludes (by name or marker), so a later
 * layer overrides an earlier one (the config can bring back a tool a context hides; planning
 * hides editing tools whatever the config enabled). Last, the settings' `excluded_tools` are
 * removed again (the user's explicit exclusion is final) and `read_only` hides editing tools.
 */
export function selectTools<T extends SelectableTool>(
  all: readonly T[],
  options: SelectOptions,
): T[] {
  const active = new Set(all.filter((t) => !t.markers.includes("optional")));
  for (const layer of layers(options)) {
    for (const tool of all) {
      if (matches(tool, layer.included_tools, layer.included_markers)) active.add(tool);
    }
    for (const tool of all) {
      if (matches(tool, layer.excluded_tools, layer.excluded_markers)) active.delete(tool);
    }
  }
  const { settings } = options;
  const readOnlyMarkers: Marker[] = settings.read_only ? ["can-edit", "symbolic-edit"] : [];
  return all.filter((tool) =>
    active.has(tool) && !matches(tool, settings.excluded_tools, readOnlyMarkers)
  );
}

/**
 * Tool names that the active context, modes or settings mention but no tool has: usually a
 * typo in the config (reported by get_current_config).
 */
export function unknownToolNames(
  all: readonly SelectableTool[],
  options: SelectOptions,
): string[] {
  const known = new Set(all.map((t) => t.name));
  const named = layers(options).flatMap((l) => [
    ...(l.included_tools ?? []),
    ...(l.excluded_tools ?? []),
  ]);
  return [...new Set(named)].filter((name) => !known.has(name)).sort();
}
