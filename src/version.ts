/** Sextant's version, reported by `--version` and in the MCP `initialize` answer. */
export const VERSION = "0.1.0";
