import { assertEquals } from "../tests/helpers/assert.ts";
import { sha1Hex, sha256Hex } from "./sha.ts";

async function webCrypto(name: "SHA-1" | "SHA-256", bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest(name, bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("sha: the standard's examples", () => {
  const abc = new TextEncoder().encode("abc");
  assertEquals(sha1Hex(abc), "a9993e364706816aba3e25717850c26c9cd0d89d");
  assertEquals(
    sha256Hex(abc),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assertEquals(sha1Hex(new Uint8Array(0)), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
});

Deno.test("sha: the same sums as Web Crypto at every length around the block edges, and large", async () => {
  const lengths = [...Array(200).keys(), 1000, 4095, 4096, 65_537, 1_000_003];
  for (const length of lengths) {
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = (i * 131 + length * 7) & 0xff;
    assertEquals(sha1Hex(bytes), await webCrypto("SHA-1", bytes), `SHA-1 of ${length} bytes`);
    assertEquals(sha256Hex(bytes), await webCrypto("SHA-256", bytes), `SHA-256 of ${length} bytes`);
  }
});
