/**
 * Symbols declared inside values, against the real TypeScript servers (both generations):
 * names a function value's signature declares, which the declaration index does not model, are
 * still found by a project-wide find_symbol (a file shaped like hono's
 * `src/router/common.case.test.ts`); find_implementations of an interface or a function type
 * names the variable a class expression, arrow function or object literal initialises, not a
 * symbol nested in it.
 */
import { assertEquals } from "../helpers/assert.ts";
import {
  hasTypeScriptGeneration,
  linkTypeScript7,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { disposeAndCheck } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";
import { findImplementations } from "../../src/tools/symbols/find_implementations.ts";

/** A test helper exported for other test files: its options are destructured in its signature. */
const RUN_TEST = `import type { Router } from "./router.ts";

export const runTest = ({
  skip = [],
  newRouter,
}: {
  skip?: { reason: string; names: string[] }[];
  newRouter: <T>() => Router<T>;
}) => {
  suite("routes", () => {
    let router: Router<string>;
    setup(() => {
      router = newRouter();
      router.add("/", skip.length > 0 ? "skipped" : "root");
    });
  });
};

declare function suite(name: string, body: () => void): void;
declare function setup(body: () => void): void;
`;

const ROUTER = `export interface Router<T> {
  add(path: string, handler: T): void;
}

export type Matcher = (path: string) => boolean;

export const ExpressionRouter = class implements Router<string> {
  add(path: string, handler: string): void {
    const joined = () => path + handler;
    joined();
  }
};

export class NamedRouter implements Router<number> {
  add(_path: string, _handler: number): void {}
}

export const prefixMatcher: Matcher = (path: string) => {
  const trimmed = path.trim();
  return trimmed.startsWith("/");
};

export const literalRouter: Router<boolean> = {
  add(_path: string, _handler: boolean) {},
};
`;

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `symbols inside values (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness({
      "package.json": '{ "name": "values", "private": true, "type": "module" }',
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, allowImportingTsExtensions: true },
        include: ["src/**/*.ts"],
      }),
      "src/router.ts": ROUTER,
      "src/common.case.test.ts": RUN_TEST,
    });
    if (generation.typescript === 7) await linkTypeScript7(h.root);

    await t.step("find_symbol finds a destructured parameter and its type's member", async () => {
      // TypeScript 7 merges a property into a variable of the same name in one list
      // (docs/index-agreement.md), so it lists one.
      const expected = generation.typescript === 7
        ? [{ name_path: "runTest/newRouter", kind: "Constant", start_line: 4 }]
        : [
          { name_path: "runTest/newRouter[0]", kind: "Variable", start_line: 4 },
          { name_path: "runTest/newRouter[1]", kind: "Property", start_line: 7 },
        ];
      // Across the project (the declaration index chooses the files) and in the file alone
      // (the server's outline): the same answer.
      for (const scope of [{}, { relative_path: "src/common.case.test.ts" }]) {
        const found = JSON.parse(
          await h.call(findSymbol, { name_path_pattern: "newRouter", ...scope }),
        ) as Array<{ name_path: string; kind: string; body_location: { start_line: number } }>;
        assertEquals(
          found.map((f) => ({
            name_path: f.name_path,
            kind: f.kind,
            start_line: f.body_location.start_line,
          })),
          expected,
          JSON.stringify(scope),
        );
      }
      const last = expected[expected.length - 1]!.name_path;
      const exact = JSON.parse(
        await h.call(findSymbol, { name_path_pattern: last }),
      ) as Array<{ name_path: string }>;
      assertEquals(exact.map((f) => f.name_path), [last]);
    });

    await t.step("find_implementations names the variable a value initialises", async () => {
      const names = async (namePath: string) =>
        (JSON.parse(
          await h.call(findImplementations, {
            name_path: namePath,
            relative_path: "src/router.ts",
          }),
        ) as Array<{ name_path: string; kind: string }>).map((f) => `${f.name_path} ${f.kind}`);
      assertEquals(await names("Router"), [
        "ExpressionRouter Constant",
        "NamedRouter Class",
        "literalRouter Constant",
      ]);
      assertEquals(await names("Matcher"), ["prefixMatcher Constant"]);
      // A method's implementations are the methods themselves.
      assertEquals(await names("Router/add"), [
        "ExpressionRouter/add Method",
        "NamedRouter/add Method",
        "literalRouter/add Method",
      ]);
    });

    await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
  });
}
