/**
 * The pytest parser on recorded output: pytest's output.
 * @module
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { parsePytest } from "./pytest.ts";

Deno.test("pytest output: closing counts, short summary and frame locations", () => {
  const output = `collected 4 items

tests/test_a.py .F.s                                                     [100%]

=================================== FAILURES ===================================
______________________________ TestX.test_method _______________________________

    def test_method(self):
>       helper()

tests/test_a.py:12: 
_ _ _ _ _
    def helper():
>       assert 1 == 2
E       assert 1 == 2

tests/helpers.py:3: AssertionError
=========================== short test summary info ============================
FAILED tests/test_a.py::TestX::test_method - assert 1 == 2
 +  where details follow
=================== 1 failed, 2 passed, 1 skipped in 0.12s ====================
`;
  const summary = parsePytest(output, "/p");
  assertEquals([summary.passed, summary.failed, summary.ignored], [2, 1, 1]);
  assertEquals(summary.failures[0]?.name, "tests/test_a.py::TestX::test_method");
  assertEquals(summary.failures[0]?.message, "assert 1 == 2\n+  where details follow");
  assertEquals([summary.failures[0]?.file, summary.failures[0]?.line], ["tests/helpers.py", 3]);
});
