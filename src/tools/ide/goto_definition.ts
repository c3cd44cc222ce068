/**
 * goto_definition, type_definition and implementation: where the symbol at a position is
 * defined, typed or implemented. A position is `relative_path` + 1-based `line`/`column`, or
 * `relative_path` + `name_path`.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import { normalizeLocations } from "../../symbols/queries.ts";
import {
  ask,
  describePosition,
  type LocationDict,
  locationDict,
  positionParams,
  resolvePosition,
} from "../shared/targets.ts";
import { defineTool, type Tool } from "../tool.ts";
import { textDocumentPosition, uniqueLocations } from "../shared/targets.ts";
import { toJson } from "../shared/json.ts";
import { locationsFromIndex } from "../shared/scip_references.ts";

/** The answer's shape: the first location flat, all of them under `locations` when several. */
function located(dicts: readonly LocationDict[]): string {
  const answer: Record<string, unknown> = { found: true, ...dicts[0] };
  if (dicts.length > 1) answer.locations = dicts;
  return toJson(answer);
}

function locationTool(spec: {
  name: string;
  method: string;
  capability: string;
  what: string;
  description: string;
  optional?: boolean;
  /** What a SCIP index built in CI can answer for unchanged files (shared/scip_references.ts). */
  fromIndex?: "definitions" | "implementations";
}): Tool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    params: positionParams,
    markers: spec.optional ? ["symbolic-read", "optional"] : ["symbolic-read"],
    readOnly: true,
    async handler(args, ctx) {
      if (spec.fromIndex) {
        const indexed = await locationsFromIndex(ctx, args, spec.fromIndex);
        if (indexed !== null && indexed.length > 0) {
          return located(indexed.map(({ is_definition: _, ...at }) => at));
        }
      }
      const target = await resolvePosition(ctx, args);
      const result = await ask<unknown>(
        target,
        spec.method,
        textDocumentPosition(target),
        spec.capability,
        spec.what,
      );
      const locations = uniqueLocations(normalizeLocations(result));
      if (locations.length === 0) {
        return toJson({
          found: false,
          message: `No ${spec.what} found at ${describePosition(target)}.`,
        });
      }
      const dicts: LocationDict[] = [];
      for (const l of locations) dicts.push(await locationDict(target, l.uri, l.range));
      return located(dicts);
    },
  });
}

export const gotoDefinition = locationTool({
  name: "goto_definition",
  method: LspMethod.definition,
  capability: "definitionProvider",
  what: "definition",
  fromIndex: "definitions",
  description: "Where the symbol at a position (1-based line/column, or name_path) is defined, " +
    "across files and into libraries.",
});

export const typeDefinition = locationTool({
  name: "type_definition",
  method: LspMethod.typeDefinition,
  capability: "typeDefinitionProvider",
  what: "type definition",
  optional: true,
  description: "Finds the definition of the type of the symbol at a position (e.g. the class " +
    "of a variable). Position: relative_path + 1-based line/column, or name_path. Returns " +
    '{"found", "file", "line", "column", "preview"} ("locations" when several).',
});

export const implementation = locationTool({
  name: "implementation",
  method: LspMethod.implementation,
  capability: "implementationProvider",
  what: "implementation",
  optional: true,
  fromIndex: "implementations",
  description: "Finds the implementations of the interface, abstract method or declaration at " +
    "a position. Position: relative_path + 1-based line/column, or name_path. Returns " +
    '{"found", "file", "line", "column", "preview"} ("locations" lists all when several).',
});
