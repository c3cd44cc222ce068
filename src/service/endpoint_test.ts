import { join } from "node:path";
import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { ensurePrivateFolder, environmentDigest, sameToken, servicePaths } from "./endpoint.ts";

Deno.test("environmentDigest: stable, and different for a different PATH", () => {
  const env = (path: string) => (key: string) => key === "PATH" ? path : undefined;
  assertEquals(environmentDigest(env("/bin")), environmentDigest(env("/bin")));
  assert(environmentDigest(env("/bin")) !== environmentDigest(env("/usr/bin")));
  assertEquals(environmentDigest(env("/bin")).length, 12);
});

Deno.test("environmentDigest: FNV-1a's 64 bits, as the BigInt form computed them", () => {
  // Values of the former BigInt implementation: fronts and services keep finding each other.
  const env = (vars: Record<string, string>) => (key: string) => vars[key];
  assertEquals(environmentDigest(env({ PATH: "/bin" })), "e6504fc506f1");
  assertEquals(environmentDigest(env({})), "b2315e03e60c");
  assertEquals(
    environmentDigest(env({
      HOME: "/home/ü",
      PATH: "/usr/bin:/bin",
      SEXTANT_LSP_PATH: "/opt/lsp",
      XDG_CONFIG_HOME: "/c",
    })),
    "4456bc7871df",
  );
  const bigint = (text: string) => {
    let hash = 0xcbf29ce484222325n;
    for (const byte of new TextEncoder().encode(text)) {
      hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
    }
    return hash.toString(16).padStart(16, "0").slice(0, 12);
  };
  for (let i = 0; i < 200; i++) {
    const path = Array.from(
      { length: i },
      (_, j) => String.fromCharCode(32 + (i * 7 + j * 13) % 500),
    )
      .join("");
    const value = (key: string) => key === "PATH" ? path : undefined;
    const joined = ["HOME=", "XDG_CONFIG_HOME=", "SEXTANT_LSP_PATH=", `PATH=${path}`].join("\0");
    assertEquals(environmentDigest(value), bigint(joined), `PATH of ${i} characters`);
  }
});

Deno.test("sameToken compares whole tokens", () => {
  assert(sameToken("abc", "abc"));
  assert(!sameToken("abc", "abd"));
  assert(!sameToken("abc", "ab"));
});

Deno.test("ensurePrivateFolder: creates 0700, refuses a folder open to others", async () => {
  const parent = await Deno.makeTempDir();
  try {
    const fresh = join(parent, "fresh");
    ensurePrivateFolder(fresh, null);
    assertEquals(Deno.statSync(fresh).mode! & 0o777, 0o700);
    const open = join(parent, "open");
    Deno.mkdirSync(open);
    Deno.chmodSync(open, 0o755);
    assertThrows(() => ensurePrivateFolder(open, null), "is open to other users (mode 755)");
    const uid = Deno.statSync(fresh).uid;
    assertThrows(() => ensurePrivateFolder(fresh, (uid ?? 0) + 1), "belongs to user");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("servicePaths: under XDG_RUNTIME_DIR, named for the version and environment", async () => {
  const runtime = await Deno.makeTempDir();
  try {
    const paths = servicePaths((key) => key === "XDG_RUNTIME_DIR" ? runtime : undefined);
    assertEquals(paths.dir, join(runtime, "sextant"));
    assert(paths.endpoint.startsWith(join(runtime, "sextant", "sextant-")));
    assert(paths.endpoint.endsWith(".json") && paths.lock.endsWith(".lock"));
  } finally {
    await Deno.remove(runtime, { recursive: true });
  }
});
