/**
 * What Sextant reads from a Serena project file (`<root>/.serena/project.yml`), so that a project
 * Serena knows keeps its identity: the `project_name` it was registered under and its
 * `language_servers` (or the older `languages`). Only these top-level keys are read, by a small
 * line reader for the forms Serena writes (`key: value`, `key: [a, b]`, or a `- item` list);
 * nothing is ever written there.
 * @module
 */
import { join } from "node:path";

/** The parts of a Serena project file Sextant uses; absent keys are left out. */
export interface SerenaProjectFile {
  projectName?: string;
  languageServers?: string[];
}

/** A YAML scalar as Serena writes it: plain, or in single or double quotes. */
function scalar(text: string): string {
  const value = text.replace(/\s+#.*$/, "").trim();
  const quoted = value.match(/^"(.*)"$/) ?? value.match(/^'(.*)'$/);
  return quoted ? quoted[1]! : value;
}

/**
 * The Serena project file's name and language servers, parsed from its text.
 *
 * @example
 * ```ts
 * import { parseSerenaProject } from "./serena_project.ts";
 * const text = 'project_name: "shop"\nlanguage_servers: [python, typescript]\n';
 * console.log(parseSerenaProject(text)); // { projectName: "shop", languageServers: [...] }
 * ```
 */
export function parseSerenaProject(text: string): SerenaProjectFile {
  const out: SerenaProjectFile = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = lines[i]!.match(/^([A-Za-z_]+):(.*)$/);
    if (!match) continue;
    const [, key, rest] = match;
    if (key === "project_name") {
      const name = scalar(rest!);
      if (name !== "") out.projectName = name;
    } else if ((key === "language_servers" || key === "languages") && !out.languageServers) {
      const flow = rest!.trim().match(/^\[(.*)\]/);
      const items: string[] = [];
      if (flow) {
        items.push(...flow[1]!.split(",").map(scalar).filter((s) => s !== ""));
      } else {
        for (let j = i + 1; j < lines.length; j++) {
          const item = lines[j]!.match(/^\s*-\s*(.+)$/);
          if (!item) break;
          items.push(scalar(item[1]!));
        }
      }
      if (items.length > 0) out.languageServers = items;
    }
  }
  return out;
}

/** The Serena project file of `root`, or an empty record when there is none (or unreadable). */
export function readSerenaProject(root: string): SerenaProjectFile {
  try {
    return parseSerenaProject(Deno.readTextFileSync(join(root, ".serena", "project.yml")));
  } catch {
    return {};
  }
}
