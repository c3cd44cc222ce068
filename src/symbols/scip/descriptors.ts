/**
 * The name path of a SCIP symbol. A global symbol is `<scheme> <manager> <package> <version>
 * <descriptors>`, where each descriptor is a name with a suffix: `/` a namespace, `#` a type,
 * `.` a term, `(…).` a method, `:` meta (a module), `!` a macro, `[…]` a type parameter and
 * `(…)` a parameter. A name is plain (`[A-Za-z0-9_+\-$]`) or quoted in backticks. Sextant's name
 * paths (`Outer/inner`) are the types, terms, methods and macros after the last namespace or
 * module: scip-typescript names the file in namespaces (``src/`shapes.ts`/Shape#area().``),
 * scip-python in a module (`flaskish/__init__:Flask#route().`).
 * @module
 */

const PLAIN = /[A-Za-z0-9_+\-$]/;

/** The fields before the descriptors, with `  ` standing for a space inside a field. */
function skipHeader(symbol: string): number {
  let fields = 0;
  let i = 0;
  while (i < symbol.length && fields < 4) {
    if (symbol[i] === " ") {
      if (symbol[i + 1] === " ") {
        i += 2;
        continue;
      }
      fields++;
    }
    i++;
  }
  return fields === 4 ? i : -1;
}

/**
 * The symbol's name path segments (`["Shape", "area"]`), or null for a local symbol or one that
 * does not parse.
 */
export function namePathOfSymbol(symbol: string): string[] | null {
  if (symbol.startsWith("local ")) return null;
  let i = skipHeader(symbol);
  if (i < 0) return null;
  let path: string[] = [];
  const readName = (): string | null => {
    if (symbol[i] === "`") {
      let name = "";
      i++;
      while (i < symbol.length) {
        if (symbol[i] === "`") {
          if (symbol[i + 1] === "`") {
            name += "`";
            i += 2;
            continue;
          }
          i++;
          return name;
        }
        name += symbol[i++];
      }
      return null;
    }
    const start = i;
    while (i < symbol.length && PLAIN.test(symbol[i]!)) i++;
    return i > start ? symbol.slice(start, i) : null;
  };
  const skipTo = (close: string): boolean => {
    const end = symbol.indexOf(close, i);
    if (end < 0) return false;
    i = end + 1;
    return true;
  };
  while (i < symbol.length) {
    const c = symbol[i];
    if (c === "(" || c === "[") {
      // A parameter or a type parameter: not part of a name path.
      if (!skipTo(c === "(" ? ")" : "]")) return null;
      continue;
    }
    const name = readName();
    if (name === null) return null;
    const suffix = symbol[i];
    if (suffix === "(") {
      if (!skipTo(")") || symbol[i] !== ".") return null;
      i++;
      path.push(name);
    } else if (suffix === "/" || suffix === ":") {
      i++;
      path = [];
    } else if (suffix === "#" || suffix === "." || suffix === "!") {
      i++;
      path.push(name);
    } else {
      return null;
    }
  }
  return path;
}

/**
 * True when `segments` match a Sextant name path: `name` (the last segment), `Outer/name` (a
 * suffix) or `/Outer/name` (the whole path). An overload index (`name[1]`) is ignored.
 */
export function matchesNamePath(segments: readonly string[], namePath: string): boolean {
  const absolute = namePath.startsWith("/");
  const wanted = namePath.replace(/^\/+|\/+$/g, "").split("/").map((s) =>
    s.replace(/\[\d+\]$/, "")
  );
  if (wanted.length === 0 || wanted.length > segments.length) return false;
  if (absolute && wanted.length !== segments.length) return false;
  const offset = segments.length - wanted.length;
  return wanted.every((w, k) => segments[offset + k] === w);
}
