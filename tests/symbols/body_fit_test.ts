/**
 * replace_symbol_body keeps what belongs to the symbol, with the real servers and judged by each
 * project's own build before and after: a Rust `#[test]` with a doc comment still runs under
 * `cargo test`; TypeScript `export const` and `export function` with JSDoc, the body with or
 * without its JSDoc, still pass `tsc --noEmit`; a Go function and type with doc comments still
 * pass `go vet` and `go build`; a Python function keeps its decorator (the module still imports
 * and the cache is there); a Java method keeps its Javadoc and `@Override` (javac), a C function
 * its doc comment and `static inline` (cc). Exact file texts, and refusals that change nothing.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  hasServer,
  hasTypeScriptGeneration,
  LSP_CACHE,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { linkTypeScript7 } from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { tempDir, toolHarness } from "../helpers/tool_ctx.ts";
import { java21Env } from "../helpers/java.ts";
import { replaceSymbolBody } from "../../src/tools/symbols/replace_symbol_body.ts";

/** Run a program in `cwd`; its exit code and output (stdout and stderr). */
async function run(
  program: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(program, { args, cwd, env, stdin: "null" }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

const URL_TS = `/** Splits a path into its parts. */
export const splitPath = (path: string): string[] => path.split("/");

/**
 * Doubles a number.
 * @param n the number
 */
export function double(n: number): number {
  return n * 2;
}
`;

const USE_TS = `import { double, splitPath } from "./url.ts";

export const parts: string[] = splitPath("/a/b");
export const four: number = double(2);
`;

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `replace_symbol_body keeps JSDoc and export, tsc passes (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness({
      "package.json": '{ "name": "paths", "private": true, "type": "module" }',
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          module: "ESNext",
          moduleResolution: "Bundler",
          target: "ES2022",
        },
        include: ["src/**/*.ts"],
      }),
      "src/url.ts": URL_TS,
      "src/use.ts": USE_TS,
    });
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    const tsc = generation.typescript === 7
      ? h.path("node_modules/.bin/tsc")
      : join(LSP_CACHE, "node_modules", ".bin", "tsc");
    const typeCheck = async () => {
      const result = await run(tsc, ["--noEmit", "-p", "tsconfig.json"], h.root);
      assertEquals(result.code, 0, result.out);
    };
    const replace = (namePath: string, body: string) =>
      h.run(replaceSymbolBody, { name_path: namePath, relative_path: "src/url.ts", body });

    await t.step("tsc passes before", typeCheck);

    await t.step(
      "export const: a body without JSDoc keeps it; one with JSDoc replaces it",
      async () => {
        const value = '(path: string): string[] => path.split("/").filter(Boolean)';
        assertEquals(await replace("splitPath", `export const splitPath = ${value}`), {
          isError: false,
          text: "OK",
        });
        assertEquals(
          await h.read("src/url.ts"),
          URL_TS.replace('path.split("/");', 'path.split("/").filter(Boolean);'),
        );
        assertEquals(
          await replace(
            "splitPath",
            `/** The parts of a path. */\nexport const splitPath = ${value}`,
          ),
          { isError: false, text: "OK" },
        );
        const text = await h.read("src/url.ts");
        assertEquals(
          text,
          URL_TS.replace("/** Splits a path into its parts. */", "/** The parts of a path. */")
            .replace('path.split("/");', 'path.split("/").filter(Boolean);'),
        );
        assertEquals(count(text, "export const"), 1, text);
      },
    );

    await t.step("export function: with and without JSDoc or export", async () => {
      const before = await h.read("src/url.ts");
      const rest = "double(n: number): number {\n  return n + n;\n}";
      assertEquals((await replace("double", `function ${rest}`)).text, "OK");
      assertEquals(
        await h.read("src/url.ts"),
        before.replace("return n * 2;", "return n + n;"),
      );
      const doc = "/**\n * Twice a number.\n * @param n the number\n */";
      assertEquals((await replace("double", `${doc}\nexport function ${rest}`)).text, "OK");
      const text = await h.read("src/url.ts");
      assertEquals(
        text,
        before.replace("return n * 2;", "return n + n;").replace(
          "/**\n * Doubles a number.\n * @param n the number\n */",
          doc,
        ),
      );
      assertEquals(count(text, "/**"), 2, text);
    });

    await t.step("a body that would drop `export` is refused in words", async () => {
      const before = await h.read("src/url.ts");
      const refused = await replace("double", "const double = (n: number): number => n + n;");
      assert(refused.isError, refused.text);
      assertStringIncludes(refused.text, "without 'export'");
      assertStringIncludes(refused.text, "src/url.ts line 8 ('export function double(n: number)");
      assertStringIncludes(refused.text, "Nothing was changed.");
      assert(!refused.text.includes("''"), refused.text);
      assertEquals(await h.read("src/url.ts"), before);
    });

    await t.step("tsc passes after", typeCheck);
    await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
  });
}

const HAS_RUST = hasServer("rust-analyzer", ["--version"]) && hasServer("cargo", ["--version"]);

Deno.test({
  name: "replace_symbol_body keeps a Rust test's doc comment and #[test]; cargo test runs it",
  ignore: skipUnless(HAS_RUST, "rust-analyzer and cargo"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("rust/traits"));
  const lib = await h.read("src/lib.rs");
  const documented = lib.replace(
    "    #[test]\n    fn circle_area() {",
    "    /// A circle of radius 2 (pi is 3 in this crate).\n    #[test]\n    fn circle_area() {",
  );
  assert(documented !== lib, "the fixture has the test");
  await h.write("src/lib.rs", documented);
  // The fixture's `square_area` fails on purpose; what counts is which tests run.
  const cargoTest = async () => {
    const result = await run("cargo", ["test", "--offline", "--lib"], h.root, {
      CARGO_TERM_COLOR: "never",
    });
    const ran = [...result.out.matchAll(/^running (\d+) tests?$/gm)]
      .reduce((sum, m) => sum + Number(m[1]), 0);
    return { ...result, ran };
  };

  let before = 0;
  await t.step("cargo test before: the documented test runs and passes", async () => {
    const result = await cargoTest();
    before = result.ran;
    assertEquals(before, 3, result.out);
    assertStringIncludes(result.out, "test tests::circle_area ... ok");
  });

  await t.step("a body without doc comment and attribute keeps both", async () => {
    assertEquals(
      await h.call(replaceSymbolBody, {
        name_path: "tests/circle_area",
        relative_path: "src/lib.rs",
        body: "fn circle_area() {\n    assert_eq!(Circle { radius: 1.0 }.area(), 3.0);\n}",
      }),
      "OK",
    );
    assertEquals(
      await h.read("src/lib.rs"),
      documented.replace(
        "assert_eq!(Circle { radius: 2.0 }.area(), 12.0);",
        "assert_eq!(Circle { radius: 1.0 }.area(), 3.0);",
      ),
    );
  });

  await t.step("a pub fn's body without `pub` and doc keeps both", async () => {
    const text = await h.read("src/lib.rs");
    assertEquals(
      await h.call(replaceSymbolBody, {
        name_path: "total_area",
        relative_path: "src/lib.rs",
        body: "fn total_area(items: &[&dyn Shape]) -> f64 {\n" +
          "    items.iter().map(|s| s.area()).fold(0.0, |a, b| a + b)\n}",
      }),
      "OK",
    );
    assertEquals(
      await h.read("src/lib.rs"),
      text.replace(".sum()", ".fold(0.0, |a, b| a + b)"),
    );
  });

  await t.step("cargo test after: the same tests run, the documented one passes", async () => {
    const result = await cargoTest();
    assertEquals(result.ran, before, result.out);
    assertStringIncludes(result.out, "test tests::circle_area ... ok");
  });

  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});

const HAS_GO = hasServer("gopls") && hasServer("go", ["version"]);

Deno.test({
  name: "replace_symbol_body keeps Go doc comments; go vet and go build pass",
  ignore: skipUnless(HAS_GO, "gopls and go"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("go/shapes"));
  const env = { GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local" };
  const goCheck = async () => {
    for (const args of [["vet", "./..."], ["build", "./..."]]) {
      const result = await run("go", args, h.root, env);
      assertEquals(result.code, 0, `go ${args.join(" ")}: ${result.out}`);
    }
  };
  const original = await h.read("square.go");

  await t.step("go vet and go build pass before", goCheck);

  await t.step("a function: with its own doc comment, then without one", async () => {
    const body = 'func Describe(shape Shape) string {\n\treturn shape.Name() + "!"\n}';
    assertEquals(
      await h.call(replaceSymbolBody, {
        name_path: "Describe",
        relative_path: "square.go",
        body: `// Describe names a shape, loudly.\n${body}`,
      }),
      "OK",
    );
    const loud = original.replace(
      "// Describe names a shape and gives its area.\nfunc Describe(shape Shape) string {\n" +
        "\treturn shape.Name()\n}",
      `// Describe names a shape, loudly.\n${body}`,
    );
    assert(loud !== original);
    assertEquals(await h.read("square.go"), loud);
    assertEquals(
      await h.call(replaceSymbolBody, {
        name_path: "Describe",
        relative_path: "square.go",
        body: body.replace('"!"', '"?"'),
      }),
      "OK",
    );
    assertEquals(await h.read("square.go"), loud.replace('"!"', '"?"'));
  });

  await t.step("a type (gopls's range starts at its name)", async () => {
    const text = await h.read("square.go");
    assertEquals(
      await h.call(replaceSymbolBody, {
        name_path: "Square",
        relative_path: "square.go",
        body: "type Square struct {\n\tSide float64 // the length of a side\n}",
      }),
      "OK",
    );
    assertEquals(
      await h.read("square.go"),
      text.replace("\tSide float64\n", "\tSide float64 // the length of a side\n"),
    );
  });

  await t.step("go vet and go build pass after", goCheck);
  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});

const HAS_PY = hasServer("pyright-langserver");

Deno.test({
  name: "replace_symbol_body keeps a Python decorator and the comment above",
  ignore: skipUnless(HAS_PY, "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const APP = "import functools\n\n\n# The answer, computed once.\n@functools.cache\n" +
    "def answer() -> int:\n    return 41\n";
  await using h = await toolHarness({ "app.py": APP });
  const args = { name_path: "answer", relative_path: "app.py" };
  const imports = async () => {
    const result = await run(
      "python3",
      ["-c", "import app; print(app.answer(), app.answer.cache_info().currsize)"],
      h.root,
    );
    assertEquals(result.code, 0, result.out);
    return result.out.trim();
  };

  await t.step("the module imports before, its function cached", async () => {
    assertEquals(await imports(), "41 1");
  });

  await t.step("a body without the decorator keeps it", async () => {
    assertEquals(
      await h.call(replaceSymbolBody, { ...args, body: "def answer() -> int:\n    return 42" }),
      "OK",
    );
    assertEquals(await h.read("app.py"), APP.replace("return 41", "return 42"));
    assertEquals(await imports(), "42 1");
  });

  await t.step("a body with the decorator keeps one; a new one replaces it", async () => {
    assertEquals(
      await h.call(replaceSymbolBody, {
        ...args,
        body: "@functools.cache\ndef answer() -> int:\n    return 43",
      }),
      "OK",
    );
    assertEquals(await h.read("app.py"), APP.replace("return 41", "return 43"));
    assertEquals(
      await h.call(replaceSymbolBody, {
        ...args,
        body: "@functools.lru_cache(maxsize=4)\ndef answer() -> int:\n    return 44",
      }),
      "OK",
    );
    assertEquals(
      await h.read("app.py"),
      APP.replace("@functools.cache", "@functools.lru_cache(maxsize=4)").replace(
        "return 41",
        "return 44",
      ),
    );
    assertEquals(await imports(), "44 1");
  });

  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});

const JAVA_ENV = java21Env();
const HAS_JAVA = hasServer("jdtls") && JAVA_ENV !== null && hasServer("javac", ["-version"]);

Deno.test({
  name: "replace_symbol_body keeps Javadoc and @Override in JDT LS's range; javac compiles",
  ignore: skipUnless(HAS_JAVA, "jdtls with a Java 21+ runtime, and javac"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  // The server is started with this process's environment.
  const saved = Object.keys(JAVA_ENV ?? {}).map((key) => [key, Deno.env.get(key)] as const);
  for (const [key, value] of Object.entries(JAVA_ENV ?? {})) Deno.env.set(key, value);
  using _restore = {
    [Symbol.dispose]() {
      for (const [key, value] of saved) {
        value === undefined ? Deno.env.delete(key) : Deno.env.set(key, value);
      }
    },
  };
  await using h = await toolHarness(await fixtureTree("java/shapes"));
  const circle = "src/main/java/demo/Circle.java";
  const documented = (await h.read(circle)).replace(
    "    @Override\n    public double area() {",
    "    /** The area, with pi rounded to 3. */\n    @Override\n    public double area() {",
  );
  await h.write(circle, documented);
  const javac = async () => {
    await using out = await tempDir("sextant-javac-");
    const sources = [...Deno.readDirSync(h.path("src/main/java/demo"))]
      .map((e) => `src/main/java/demo/${e.name}`);
    const result = await run("javac", ["-d", out.path, ...sources], h.root);
    assertEquals(result.code, 0, result.out);
  };

  await t.step("javac compiles before", javac);

  await t.step("a body without Javadoc and annotation keeps both", async () => {
    assertEquals(
      await h.call(replaceSymbolBody, {
        name_path: "Circle/area()",
        relative_path: circle,
        body: "public double area() {\n    return 3.0 * radius * radius;\n}",
      }),
      "OK",
    );
    assertEquals(
      await h.read(circle),
      documented.replace("return 3 * radius * radius;", "return 3.0 * radius * radius;"),
    );
  });

  await t.step("javac compiles after", javac);
  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});

const HAS_C = hasServer("clangd", ["--version"]) && hasServer("cc", ["--version"]);

Deno.test({
  name: "replace_symbol_body keeps a C doc comment and `static` before clangd's name; cc compiles",
  ignore: skipUnless(HAS_C, "clangd and cc"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("c"));
  const file = "src/shape.c";
  const documented = (await h.read(file)).replace(
    "int rect_perimeter(",
    "/** Twice the sum of the sides. */\nstatic inline int twice(int n) { return 2 * n; }\n\n" +
      "/** The length around. */\nint rect_perimeter(",
  ).replace("return 2 * (r->width + r->height);", "return twice(r->width + r->height);");
  await h.write(file, documented);
  const cc = async () => {
    const result = await run(
      "cc",
      ["-std=c11", "-Wall", "-Werror", "-Isrc", "-fsyntax-only", file],
      h.root,
    );
    assertEquals(result.code, 0, result.out);
  };

  await t.step("cc compiles before", cc);

  await t.step("a body without the doc comment and modifiers keeps them", async () => {
    assertEquals(
      await h.call(replaceSymbolBody, {
        name_path: "twice",
        relative_path: file,
        body: "int twice(int n) { return n + n; }",
      }),
      "OK",
    );
    assertEquals(await h.read(file), documented.replace("return 2 * n;", "return n + n;"));
    assertEquals(
      await h.call(replaceSymbolBody, {
        name_path: "rect_perimeter",
        relative_path: file,
        body: "/** The perimeter. */\nint rect_perimeter(const struct rect *r) {\n" +
          "    return twice(r->height + r->width);\n}",
      }),
      "OK",
    );
    assertEquals(
      await h.read(file),
      documented.replace("return 2 * n;", "return n + n;")
        .replace("/** The length around. */", "/** The perimeter. */")
        .replace("twice(r->width + r->height)", "twice(r->height + r->width)"),
    );
  });

  await t.step("cc compiles after", cc);
  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});
