/**
 * Where the settings files are. Apart from config/load.ts, which reads them, so that the start
 * path can look at them without loading the JSONC parser (lsp/prestart.ts).
 * @module
 */
import { join } from "node:path";

/** The global config file: `$XDG_CONFIG_HOME/sextant/config.jsonc` (or `~/.config/...`). */
export function globalConfigPath(): string | undefined {
  const xdg = Deno.env.get("XDG_CONFIG_HOME");
  if (xdg) return join(xdg, "sextant", "config.jsonc");
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  return home ? join(home, ".config", "sextant", "config.jsonc") : undefined;
}

export function projectConfigPath(root: string): string {
  return join(root, ".sextant", "project.jsonc");
}
