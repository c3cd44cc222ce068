import { assertEquals } from "../../../tests/helpers/assert.ts";
import {
  cIncludeSpecs,
  goImportSpecs,
  importSpecs,
  jsImportSpecs,
  jvmImportSpecs,
  pythonImportSpecs,
  rustImportSpecs,
} from "./import_lines.ts";

Deno.test("import lines: TypeScript, on the line of the specifier, comments skipped", () => {
  const source = [
    'import { a } from "./a";', // 1
    "// import { old } from './old';", // 2
    "import {", // 3
    "  b,", // 4
    '} from "./b.ts";', // 5
    'export * from "../c";', // 6
    "/* import x from 'y' */", // 7
    'const d = await import("./d");', // 8
    'const e = require("e");', // 9
  ].join("\n");
  assertEquals(jsImportSpecs(source), [
    { spec: "./a", line: 1 },
    { spec: "./b.ts", line: 5 },
    { spec: "../c", line: 6 },
    { spec: "./d", line: 8 },
    { spec: "e", line: 9 },
  ]);
});

Deno.test("import lines: Python, joined lists and continued lines keep the lines after", () => {
  const source = [
    "from .pkg import (one,", // 1
    "    two as second)  # why", // 2
    "import os, a.b as c", // 3
    "x = 1 \\", // 4
    "  + 2", // 5
    "# import hidden", // 6
    "from . import *", // 7
  ].join("\n");
  assertEquals(
    pythonImportSpecs(source).map(({ module, names, line }) => ({ module, names, line })),
    [
      { module: ".pkg", names: ["one", "two"], line: 1 },
      { module: "os", names: [], line: 3 },
      { module: "a.b", names: [], line: 3 },
      { module: ".", names: [], line: 7 },
    ],
  );
});

Deno.test("import lines: Go blocks and single imports", () => {
  const source = 'package m\n\nimport (\n\t"fmt"\n\tx "example.com/m/x"\n)\n\nimport "os"\n';
  assertEquals(goImportSpecs(source), [
    { spec: "fmt", line: 4 },
    { spec: "example.com/m/x", line: 5 },
    { spec: "os", line: 8 },
  ]);
});

Deno.test("import lines: Rust mod and use, C includes, Java and Kotlin imports", () => {
  assertEquals(rustImportSpecs("\n\npub mod a;\n// mod b;\nuse crate::a::{X, Y};\n"), [
    { spec: "a", kind: "mod", line: 3 },
    { spec: "crate::a::", kind: "use", line: 5 },
  ]);
  assertEquals(cIncludeSpecs('#include "util.h"\n/* #include "no.h" */\n# include <stdio.h>\n'), [
    { spec: "util.h", line: 1 },
    { spec: "stdio.h", line: 3 },
  ]);
  assertEquals(jvmImportSpecs("package p;\nimport a.b.C;\nimport static a.b.D.m;\n"), [
    { spec: "a.b.C", line: 2 },
    { spec: "a.b.D.m", line: 3 },
  ]);
});

Deno.test("import lines: a file is read as its extension says", () => {
  assertEquals(importSpecs("src/A.TS", 'import "./x";'), [{ spec: "./x", line: 1 }]);
  assertEquals(importSpecs("main.py", "import x").map((s) => s.spec), ["x"]);
  assertEquals(importSpecs("data.json", 'import "./x";'), []);
});
