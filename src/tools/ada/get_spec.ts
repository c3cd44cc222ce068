/**
 * get_spec: spec ↔ body navigation by GNAT's naming convention (or the project's Naming
 * package), down to the matching subprogram.
 * @module
 */
import { basename, dirname, posix } from "node:path";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import type { Project } from "../../project/project.ts";
import {
  bodyAtLine,
  declarationAtLine,
  findBodies,
  type Located,
  matchDeclaration,
  specDeclarations,
} from "../../toolchain/ada/navigate.ts";
import { chooseGpr } from "../../toolchain/ada/ada_project.ts";
import {
  readUnitHeader,
  unitFileName,
  type UnitHeader,
  unitOfFileName,
} from "../../toolchain/ada/units.ts";
import type { GprNaming } from "../../toolchain/ada/gpr.ts";
import { DEFAULT_NAMING } from "../../toolchain/ada/units.ts";
import { defineTool } from "../tool.ts";
import { unitHeaderPosition } from "./stub_body.ts";

/** The Ada source files of a project (by the naming scheme's suffixes), project-relative. */
async function adaSources(
  project: Project,
  naming: GprNaming,
  signal: AbortSignal,
): Promise<string[]> {
  const files: string[] = [];
  const suffixes = [naming.specSuffix, naming.bodySuffix, ".ads", ".adb"];
  const explicit = new Set(
    [...Object.values(naming.specFiles), ...Object.values(naming.bodyFiles)].map((f) =>
      f.toLowerCase()
    ),
  );
  for await (const entry of project.walk(".", { signal })) {
    if (entry.isDirectory) continue;
    const lower = entry.path.toLowerCase();
    if (suffixes.some((s) => lower.endsWith(s)) || explicit.has(basename(lower))) {
      files.push(entry.path);
    }
  }
  return files;
}

async function readProjectFile(project: Project, path: string): Promise<string> {
  return (await project.readText(project.resolveFile(path))).text;
}

interface UnitFiles {
  unit: string;
  spec: string | null;
  body: string | null;
}

/** Find the spec and body files of a unit: by file name first, then by reading headers. */
async function locateUnit(
  project: Project,
  unit: string,
  naming: GprNaming,
  sources: string[],
): Promise<UnitFiles> {
  const byName = (part: "spec" | "body") => {
    const wanted = unitFileName(unit, part, naming).toLowerCase();
    return sources.find((f) => basename(f).toLowerCase() === wanted) ?? null;
  };
  const found: UnitFiles = { unit, spec: byName("spec"), body: byName("body") };
  if (found.spec && found.body) return found;
  // Files not named by the convention: read each unit header (specs and bodies alike).
  for (const file of sources) {
    let header: UnitHeader | null;
    try {
      header = readUnitHeader(await readProjectFile(project, file));
    } catch {
      continue;
    }
    if (!header || header.unit.toLowerCase() !== unit.toLowerCase()) continue;
    found.unit = header.unit;
    if (header.part === "spec") found.spec ??= file;
    if (header.part === "body") found.body ??= file;
  }
  return found;
}

const positionNote = "Line and column are 1-based.";

export const getSpec = defineTool({
  name: "get_spec",
  description: "Ada: finds the spec (.ads) of a body (.adb) or unit name, or the body of a spec, " +
    "by GNAT's naming convention (Parent.Child → parent-child.ads) or by reading unit headers. " +
    "With line (or name_path) it returns the matching subprogram declaration in the other file. " +
    "Returns JSON {found, unit, specFile, bodyFile, target, line, column, preview}.",
  params: {
    relative_path: z.string().default("").describe("An Ada source file (.ads or .adb)."),
    unit: z.string().default("").describe(
      "A unit name such as Geometry.Shapes (instead of a file).",
    ),
    line: z.number().int().min(1).optional().describe(
      "A line in relative_path: find the subprogram there in the other file. " + positionNote,
    ),
    column: z.number().int().min(1).optional().describe("Column on that line (not needed)."),
    name_path: z.string().default("").describe(
      "A subprogram name (e.g. Area or Geometry/Area) to find instead of a line.",
    ),
  },
  markers: ["optional"],
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const naming = chooseGpr(project.root)?.file.project.naming ?? DEFAULT_NAMING;
    if (!args.relative_path && !args.unit) {
      throw new ToolError("Give relative_path (an .ads or .adb file) or unit (a unit name).");
    }
    let unit = args.unit;
    let from: "spec" | "body" = "body";
    let sourceText: string | null = null;
    if (args.relative_path) {
      const resolved = project.resolveFile(args.relative_path);
      sourceText = (await project.readText(resolved)).text;
      const header = readUnitHeader(sourceText);
      const byName = unitOfFileName(basename(resolved.relative), naming);
      if (!header && !byName) {
        throw new ToolError(`'${resolved.relative}' is not an Ada compilation unit.`);
      }
      // A subunit (separate) belongs to its parent's spec.
      unit = header?.part === "subunit" ? header.parent! : header?.unit ?? byName!.unit;
      from = header ? (header.part === "spec" ? "spec" : "body") : byName!.part;
    }
    const sources = await adaSources(project, naming, ctx.signal);
    const files = await locateUnit(project, unit, naming, sources);
    const target: "spec" | "body" = from === "spec" ? "body" : "spec";
    const targetFile = target === "spec" ? files.spec : files.body;
    const result: Record<string, unknown> = {
      found: targetFile !== null,
      unit: files.unit,
      specFile: files.spec,
      bodyFile: files.body,
      target,
    };
    if (!targetFile) {
      result.expectedFile = posix.join(
        dirname(files.spec ?? files.body ?? args.relative_path ?? "") || ".",
        unitFileName(files.unit, target, naming),
      ).replace(/^\.\//, "");
      if (target === "body") result.hint = "Generate one with stub_body.";
      if (target === "spec" && files.body && sourceText !== null) {
        const header = readUnitHeader(sourceText);
        if (header?.kind === "procedure" || header?.kind === "function") {
          result.hint = `${files.unit} is a library subprogram body; Ada does not require a ` +
            "separate spec for it.";
        }
      }
      return JSON.stringify(result);
    }
    const targetText = await readProjectFile(project, targetFile);
    const wantedName = args.name_path ? args.name_path.split(/[/.]/).pop()! : "";
    let wanted: Located | null = null;
    if (args.line !== undefined && sourceText !== null) {
      wanted = from === "body"
        ? bodyAtLine(sourceText, args.line)
        : declarationAtLine(sourceText, args.line);
    } else if (wantedName) {
      wanted = {
        kind: "",
        name: wantedName,
        signature: [],
        line: 0,
        column: 0,
        preview: "",
        start: 0,
        end: 0,
      };
    }
    if (wanted) {
      const candidates = target === "spec" ? specDeclarations(targetText) : findBodies(targetText);
      const match = matchDeclaration(wanted, candidates);
      if (!match) {
        result.found = false;
        result.message = `No declaration of '${wanted.name}' in ${targetFile}.`;
        return JSON.stringify(result);
      }
      Object.assign(result, { line: match.line, column: match.column, preview: match.preview });
      if (wanted.preview) {
        result.from = { name: wanted.name, line: wanted.line, preview: wanted.preview };
      }
    } else {
      const header = unitHeaderPosition(targetText, files.unit);
      Object.assign(result, header);
    }
    return JSON.stringify(result);
  },
});
