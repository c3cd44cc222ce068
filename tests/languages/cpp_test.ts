/**
 * C++ through MCP on real clangd and a real CMake build, fixture fixtures/cpp (an abstract class
 * with two overriding subclasses, a CMake project with two CTest tests, one failing): the
 * implementations of a virtual method, a variable's type definition, check_project (the CMake
 * build, clean, then a compile error with its location) and test_project (the failing test with
 * its assertion's location, and a `-R` filter). Then a C project with a Makefile, checked and
 * tested with `make`.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { callJson, type Json, skipWithout } from "../helpers/toolchain.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { checkProject } from "../../src/tools/toolchain/check_project.ts";
import { testProject } from "../../src/tools/toolchain/test_project.ts";

const clangd = hasServer("clangd", ["--version"]);
const make = !skipWithout("make") && !skipWithout("cc");
const cmake = make && !skipWithout("ctest") && !skipWithout("c++");

interface Sym {
  name_path: string;
  relative_path: string;
  body_location: { start_line: number };
}

Deno.test({
  name: "c++: implementations, type definition, CMake check and CTest tests over MCP",
  ignore: skipUnless(clangd, "C++ language tests (clangd)") || !cmake,
  async fn(t) {
    await using s = await langSession("cpp", { config: { included_tools: IDE_TOOLS } });

    await t.step("find_implementations of a pure virtual method: both overrides", async () => {
      const impls = JSON.parse(
        await s.ok("find_implementations", {
          name_path: "geo/Shape/area",
          relative_path: "src/shapes.h",
        }),
      ) as Sym[];
      assertEquals(
        impls.map((i) => [i.relative_path, i.name_path, i.body_location.start_line]),
        [["src/shapes.h", "geo/Square/area", 15], ["src/shapes.h", "geo/Circle/area", 24]],
      );
    });

    await t.step("type_definition of a variable: its class", async () => {
      // tests/shape_tests.cpp line 11: `        assert(square.area() == 4.0);`, `square` at 16.
      const typeDef = JSON.parse(
        await s.ok("type_definition", {
          relative_path: "tests/shape_tests.cpp",
          line: 11,
          column: 16,
        }),
      );
      assertEquals([typeDef.file, typeDef.line, typeDef.preview], [
        "src/shapes.h",
        13,
        "class Square : public Shape {",
      ]);
    });

    await t.step("check_project: the CMake build is clean, then a compile error", async () => {
      const clean = JSON.parse(await s.ok("check_project"));
      assertEquals([clean.ok, clean.checks[0].toolchain, clean.checks[0].status], [
        true,
        "c",
        "ok",
      ]);
      assertStringIncludes(
        clean.checks[0].command,
        "ctest --build-and-test . .sextant/cmake-build",
      );
      const text = await s.read("src/shapes.cpp");
      await s.write("src/shapes.cpp", text.replace("return side_ * side_;", "return side_ * sid;"));
      const broken = JSON.parse(await s.ok("check_project"));
      assertEquals(broken.ok, false);
      assertEquals(
        broken.diagnostics.map((d: Json) => [d.file, d.line, d.column, d.severity, d.source]),
        [["src/shapes.cpp", 5, 46, "error", "cc"]],
      );
      assertStringIncludes(broken.diagnostics[0].message, "'sid' was not declared in this scope");
      await s.write("src/shapes.cpp", text);
    });

    await t.step("test_project: the failing CTest test, then one by name", async () => {
      const all = JSON.parse(await s.ok("test_project"));
      const run = all.runs[0];
      assertEquals([all.ok, run.status, run.passed, run.failed], [false, "failed", 1, 1]);
      assertEquals(
        run.failures.map((f: Json) => [f.name, f.file, f.line]),
        [["circle_area", "tests/shape_tests.cpp", 16]],
      );
      assertStringIncludes(run.failures[0].message, "Assertion `std::fabs(circle.area() - M_PI)");
      const one = JSON.parse(await s.ok("test_project", { test_name: "square_area" }));
      assertEquals([one.ok, one.runs[0].status, one.runs[0].passed, one.runs[0].failed], [
        true,
        "passed",
        1,
        0,
      ]);
    });
  },
});

const MAKEFILE = `CFLAGS = -Wall -std=c11

all: calc

calc: calc.c main.c
\t$(CC) $(CFLAGS) -o calc calc.c main.c

test: calc
\t./calc 2 3
`;

Deno.test({
  name: "c: a Makefile project is checked with make -k and tested with its test target",
  ignore: !make,
  async fn() {
    await using h = await toolHarness({
      "Makefile": MAKEFILE,
      "calc.h": "int add(int a, int b);\n",
      "calc.c": '#include "calc.h"\nint add(int a, int b) { return a + b; }\n',
      "main.c": '#include <stdio.h>\n#include <stdlib.h>\n#include "calc.h"\n' +
        "int main(int argc, char **argv) {\n" +
        "    if (argc < 3) return 2;\n" +
        '    printf("%d\\n", add(atoi(argv[1]), atoi(argv[2])));\n' +
        "    return 0;\n}\n",
    });
    const clean = await callJson(h, checkProject);
    assertEquals([clean.ok, clean.checks[0].toolchain, clean.checks[0].command], [
      true,
      "c",
      "make -k",
    ]);
    await h.write(
      "calc.c",
      '#include "calc.h"\nint add(int a, int b) { int unused; return a + c; }\n',
    );
    const broken = await callJson(h, checkProject);
    const found = broken.diagnostics.map((d: Json) => [d.file, d.line, d.severity, d.code ?? null]);
    assertEquals(found[0], ["calc.c", 2, "error", null]);
    assertStringIncludes(broken.diagnostics[0].message, "'c' undeclared");
    assert(
      found.some((d: Json[]) => d[2] === "warning" && d[3] === "-Wunused-variable"),
      JSON.stringify(found),
    );
    await h.write("calc.c", '#include "calc.h"\nint add(int a, int b) { return a + b; }\n');
    const tests = await callJson(h, testProject, { test_name: "anything" });
    assertEquals([tests.ok, tests.runs[0].status, tests.runs[0].command], [
      true,
      "passed",
      "make test",
    ]);
    assertStringIncludes(tests.runs[0].note, "no standard test filter");
  },
});

Deno.test("c: a Makefile without C sources is not a C project; one with no test target is skipped", async () => {
  await using docs = await toolHarness({ "Makefile": "all:\n\techo docs\n", "README.md": "x\n" });
  assertEquals((await docs.run(checkProject, {})).isError, true);
  await using c = await toolHarness({
    "Makefile": "all:\n\t$(CC) -c a.c\n",
    "src/a.c": "int a;\n",
  });
  const run = await callJson(c, testProject);
  assertEquals([run.runs[0].toolchain, run.runs[0].status], ["c", "skipped"]);
  assertStringIncludes(run.runs[0].reason, "Makefile has no test or check target");
});
