import { assertEquals } from "../../tests/helpers/assert.ts";
import { nonPortablePaths, splitMultiTypes } from "./portable_schema.ts";
import { ALL_TOOLS } from "./mod.ts";
import { describeTool } from "./listing.ts";
import { selectTools } from "../config/tool_selection.ts";
import { BUILTIN_CONTEXTS } from "../config/toolsets.ts";
import { DEFAULT_SETTINGS, type Settings } from "../config/schema.ts";

Deno.test("a multi-typed node becomes anyOf of single-typed branches with their keywords", () => {
  const schema = {
    type: "object",
    properties: {
      cwd: { type: ["string", "null"], default: null, description: "d", minLength: 1 },
      n: { type: ["integer"], minimum: 0 },
    },
  };
  splitMultiTypes(schema);
  assertEquals(schema.properties.cwd, {
    default: null,
    description: "d",
    anyOf: [{ type: "string", minLength: 1 }, { type: "null" }],
  } as never);
  assertEquals(schema.properties.n, { type: "integer", minimum: 0 } as never);
  assertEquals(nonPortablePaths(schema), []);
});

Deno.test("nonPortablePaths names a multi-typed or untyped property", () => {
  assertEquals(
    nonPortablePaths({
      type: "object",
      properties: { a: { type: ["string", "null"] }, b: {}, c: { type: "array", items: {} } },
    }),
    ["inputSchema.properties.a", "inputSchema.properties.b", "inputSchema.properties.c.items"],
  );
});

Deno.test("every tool's schema is portable, in every context and unlisted", () => {
  const settings = structuredClone(DEFAULT_SETTINGS) as Settings;
  const lists = [
    ALL_TOOLS,
    ...Object.keys(BUILTIN_CONTEXTS).map((context) =>
      selectTools(ALL_TOOLS, { settings, context, modes: settings.modes })
    ),
  ];
  const failing = lists.flat().flatMap((t) =>
    nonPortablePaths(describeTool(t).inputSchema).map((p) => `${t.name}: ${p}`)
  );
  assertEquals([...new Set(failing)], []);
});
