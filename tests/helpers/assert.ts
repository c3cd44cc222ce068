/**
 * Assertions for tests. `jsr:@std/assert` cannot be fetched on our machines, so these wrap
 * `node:assert/strict`, which Deno ships.
 * @module
 */
import nodeAssert from "node:assert/strict";

export function assert(condition: unknown, message?: string): asserts condition {
  nodeAssert.ok(condition, message);
}

export function assertEquals<T>(actual: unknown, expected: T, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

export function assertNotEquals(actual: unknown, expected: unknown, message?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, message);
}

export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  if (!actual.includes(expected)) {
    throw new nodeAssert.AssertionError({
      message: message ??
        `Expected ${JSON.stringify(actual)} to include ${JSON.stringify(expected)}`,
      actual,
      expected,
    });
  }
}

export function assertMatch(actual: string, expected: RegExp, message?: string): void {
  nodeAssert.match(actual, expected, message);
}

export function assertThrows(fn: () => unknown, match?: RegExp | string): Error {
  try {
    fn();
  } catch (error) {
    if (match !== undefined) {
      const text = (error as Error).message;
      if (typeof match === "string" ? !text.includes(match) : !match.test(text)) {
        throw new nodeAssert.AssertionError({
          message: `Error message ${JSON.stringify(text)} does not match ${String(match)}`,
        });
      }
    }
    return error as Error;
  }
  throw new nodeAssert.AssertionError({ message: "Expected the function to throw" });
}

export async function assertRejects(
  fn: () => Promise<unknown>,
  match?: RegExp | string,
): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    if (match !== undefined) {
      const text = (error as Error).message;
      if (typeof match === "string" ? !text.includes(match) : !match.test(text)) {
        throw new nodeAssert.AssertionError({
          message: `Error message ${JSON.stringify(text)} does not match ${String(match)}`,
        });
      }
    }
    return error as Error;
  }
  throw new nodeAssert.AssertionError({ message: "Expected the promise to reject" });
}
