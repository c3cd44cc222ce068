/**
 * A cold references question beside TypeScript 7 (a server that loads on every core, so no parse
 * worker is started for the target's file) goes to the server at the position of the target's
 * top-level declaration read from the file's text (lookup.ts's declaredMatch), before the
 * server's outline of the file, which confirms it. The text's reading (which declarations it takes,
 * which it leaves to the server), and with the real server: the answer is the one the server's
 * own outline gives (the same warm); where the outline has the name elsewhere, the question is
 * asked again there.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasTypeScript7, linkTypeScript7, skipUnless } from "../helpers/lsp.ts";
import { coldAndWarmReferences, referenceLines } from "../helpers/symbols.ts";
import { type ToolHarness, toolHarness } from "../helpers/tool_ctx.ts";
import { declaredMatch } from "../../src/symbols/lookup.ts";
import { parseNamePath } from "../../src/symbols/name_path.ts";
import { SymbolKind } from "../../src/symbols/model.ts";

/** Where the text puts `name` in `text` (line, column, kind), or null. */
function declared(name: string, text: string) {
  const match = declaredMatch(parseNamePath(name), "src/a.ts", text);
  if (match === null) return null;
  const { node } = match;
  return [node.selectionRange.start.line, node.selectionRange.start.character, node.kind];
}

Deno.test("declaredMatch: the one top-level class, interface, enum or function of the name", () => {
  const context = "import { X } from './x';\n\n/** Doc. */\n" +
    "export declare class Context<E = any> {\n  req: X;\n}\nexport type ContextVariableMap = {};\n";
  assertEquals(declared("Context", context), [3, 21, SymbolKind.Class]);
  assertEquals(declared("Shape", "interface Shape {}\n"), [0, 10, SymbolKind.Interface]);
  assertEquals(declared("Color", "export const enum Color { Red }\n"), [0, 18, SymbolKind.Enum]);
  assertEquals(declared("run", "x();\nexport async function* run() {}\n"), [
    1,
    23,
    SymbolKind.Function,
  ]);
  assertEquals(declared("Base", "export abstract class Base {}\n"), [0, 22, SymbolKind.Class]);
  // CRLF-free text as the lookup reads it; the name's last line without a newline.
  assertEquals(declared("Last", "\n\nclass Last {}"), [2, 6, SymbolKind.Class]);
});

Deno.test("declaredMatch: left to the server where the text cannot tell", () => {
  // Overloads and merged declarations: several symbols of the name.
  assertEquals(
    declared("f", "export function f(): void;\nexport function f(x?: number) {}\n"),
    null,
  );
  assertEquals(declared("Box", "export interface Box {}\nexport namespace Box {}\n"), null);
  assertEquals(declared("Box", "export class Box {}\nexport interface Box { x: 1 }\n"), null);
  // Kinds the servers name differently, and default exports.
  assertEquals(declared("T", "export type T = string;\n"), null);
  assertEquals(declared("v", "export const v = 1;\n"), null);
  assertEquals(declared("D", "export default class D {}\n"), null);
  // Not at the start of a line (nested, or not a declaration), or not there at all.
  assertEquals(declared("Inner", "namespace N {\n  export class Inner {}\n}\n"), null);
  assertEquals(declared("Missing", "class Present {}\n"), null);
  // A longer name that starts with it.
  assertEquals(declared("Context", "export class ContextMenu {}\n"), null);
  // Patterns with a parent, an overload index or an absolute path.
  assertEquals(declared("A/b", "class A { b() {} }\n"), null);
  assertEquals(declared("f[0]", "function f() {}\n"), null);
});

/** `Thing`'s references in `src/thing.ts`, cold then warm (helpers/symbols.ts). */
function coldAndWarm(h: ToolHarness) {
  return coldAndWarmReferences(h, { name_path: "Thing", relative_path: "src/thing.ts" });
}

function tree(thing: string) {
  return {
    "package.json": '{ "name": "p", "private": true }\n',
    "tsconfig.json": '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
    "src/thing.ts": thing,
    "src/app.ts": 'import { Thing } from "./thing";\n\nexport function main(): Thing {\n' +
      "  return new Thing();\n}\n",
  };
}

Deno.test({
  name: "a target read from the text: confirmed by TypeScript 7's outline, the same answer as warm",
  ignore: skipUnless(hasTypeScript7(), "TypeScript 7 (tsc --lsp)"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness(tree(
    "/** A thing. */\nexport class Thing {\n  size = 1;\n}\n\nexport const spare = new Thing();\n",
  ));
  await linkTypeScript7(h.root);
  const { cold, warm, provisional, coldAsked } = await coldAndWarm(h);
  assert(!cold.isError, cold.text);
  assertEquals(referenceLines(cold.text), [
    'src/app.ts|File|app|0:import { Thing } from "./thing";',
    "src/app.ts|Function|main|2:export function main(): Thing {",
    "src/app.ts|Function|main|3:  return new Thing();",
    "src/thing.ts|Constant|spare|5:export const spare = new Thing();",
  ]);
  assertEquals(warm, cold);
  assert(provisional);
  assertEquals(coldAsked, 1);
  await h.session.dispose();
});

Deno.test({
  name: "a target the text misreads: asked again where TypeScript 7's outline has it",
  ignore: skipUnless(hasTypeScript7(), "TypeScript 7 (tsc --lsp)"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // The only `class Thing` at the start of a line is in a template literal; the class is in a
  // namespace, where the outline has it.
  await using h = await toolHarness({
    ...tree(
      "export const sample = `\nclass Thing {}\n`;\n\nexport namespace Things {\n" +
        "  export class Thing {}\n}\n",
    ),
    "src/app.ts": 'import { Things } from "./thing";\n\nexport function main(): Things.Thing {\n' +
      "  return new Things.Thing();\n}\n",
  });
  await linkTypeScript7(h.root);
  const { cold, warm, provisional, coldAsked } = await coldAndWarm(h);
  assert(!cold.isError, cold.text);
  assertEquals(referenceLines(cold.text), [
    "src/app.ts|Function|main|2:export function main(): Things.Thing {",
    "src/app.ts|Function|main|3:  return new Things.Thing();",
  ]);
  assertEquals(warm, cold);
  assert(provisional);
  assertEquals(coldAsked, 2);
  await h.session.dispose();
});
