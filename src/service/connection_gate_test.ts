import { assertEquals } from "../../tests/helpers/assert.ts";
import { isOutOfDescriptors, limitsFor } from "./connection_gate.ts";

const WANTED = { maxUnauthenticated: 64, maxAuthenticated: 512 };

Deno.test("limitsFor: the wanted caps where descriptors are plenty or unknown", () => {
  assertEquals(limitsFor(WANTED, null), WANTED);
  assertEquals(limitsFor(WANTED, 1_048_576), WANTED);
});

Deno.test("limitsFor: connections take at most a quarter of few descriptors", () => {
  for (const limit of [16, 48, 256, 1024]) {
    const caps = limitsFor(WANTED, limit);
    // Unauthenticated ones count twice (closed ones may keep theirs until their read ends).
    const most = 2 * caps.maxUnauthenticated + caps.maxAuthenticated;
    assertEquals(most <= Math.max(3, Math.floor(limit / 4)), true, `limit ${limit}: ${most}`);
    assertEquals(caps.maxUnauthenticated >= 1 && caps.maxAuthenticated >= 1, true);
  }
});

Deno.test("isOutOfDescriptors: EMFILE and ENFILE, nothing else", () => {
  assertEquals(isOutOfDescriptors(new Error("Too many open files (os error 24)")), true);
  assertEquals(isOutOfDescriptors(new Error("Too many open files in system (os error 23)")), true);
  assertEquals(isOutOfDescriptors(new Error("Connection reset by peer (os error 104)")), false);
});
