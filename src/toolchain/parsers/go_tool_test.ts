/**
 * The go parser on recorded output: `go vet` messages and `go test -json` events.
 * @module
 */
import { assertEquals, assertStringIncludes } from "../../../tests/helpers/assert.ts";
import { parseGoTestJson, parseGoVet } from "./go_tool.ts";

Deno.test("go vet messages and go test -json events", () => {
  const vet = `# example.com/m/pkg
vet: pkg/a.go:5:2: undefined: x
./main.go:9:2: fmt.Printf format %d has arg s of wrong type string
`;
  const [a, b] = parseGoVet(vet, "/p");
  assertEquals([a?.file, a?.line, a?.severity], ["pkg/a.go", 5, "error"]);
  assertEquals([b?.file, b?.severity], ["main.go", "warning"]);
  const events = [
    { Action: "run", Package: "example.com/m/pkg", Test: "TestA" },
    {
      Action: "output",
      Package: "example.com/m/pkg",
      Test: "TestA",
      Output: "    a_test.go:12: got 1, want 2\n",
    },
    { Action: "fail", Package: "example.com/m/pkg", Test: "TestA" },
    { Action: "pass", Package: "example.com/m/pkg", Test: "TestB" },
    { Action: "skip", Package: "example.com/m/pkg", Test: "TestC" },
  ].map((e) => JSON.stringify(e)).join("\n");
  const summary = parseGoTestJson(events, "/p", "example.com/m");
  assertEquals([summary.passed, summary.failed, summary.ignored], [1, 1, 1]);
  assertEquals(summary.failures[0]?.file, "pkg/a_test.go");
  assertEquals(summary.failures[0]?.line, 12);
  assertStringIncludes(summary.failures[0]!.message, "got 1, want 2");
});

Deno.test("go test -json build errors: the build-output events' compiler lines", () => {
  const output = [
    {
      ImportPath: "github.com/spf13/cobra",
      Action: "build-output",
      Output: "# github.com/spf13/cobra\n",
    },
    {
      ImportPath: "github.com/spf13/cobra",
      Action: "build-output",
      Output: "./args.go:43:2: declared and not used: limit\n",
    },
    { ImportPath: "github.com/spf13/cobra", Action: "build-fail" },
    {
      Action: "output",
      Package: "github.com/spf13/cobra",
      Output: "FAIL\tgithub.com/spf13/cobra [build failed]\n",
    },
  ].map((e) => JSON.stringify(e)).join("\n");
  assertEquals(parseGoVet(output, "/p"), [{
    file: "args.go",
    line: 43,
    column: 2,
    severity: "error",
    message: "declared and not used: limit",
    source: "go",
  }]);
});
