/**
 * A reader for GNAT project files (.gpr): enough of the language to know a project's name,
 * source and object folders, mains, languages, imported projects and naming scheme. Scenario
 * variables take their `external (...)` defaults; `case` constructs follow those values.
 * @module
 */

/** What a .gpr file says about its project. Paths are as written, relative to the .gpr. */
export interface GprProject {
  name: string;
  /** `abstract`, `aggregate`, `library`, `aggregate library`, or "" for a standard project. */
  qualifier: string;
  /** Projects named in `with` clauses. */
  withs: string[];
  extends: string | null;
  sourceDirs: string[];
  objectDir: string;
  execDir: string;
  mains: string[];
  languages: string[];
  libraryName: string | null;
  libraryDir: string | null;
  libraryKind: string | null;
  /** From a `-gnat83/95/2005/2012/2022` switch, e.g. "Ada2012"; null when none is given. */
  adaVersion: string | null;
  naming: GprNaming;
  /** Scenario variables (`external ("NAME", "default")`) with the value used. */
  externals: Record<string, string>;
}

/** The Naming package, for Ada units. */
export interface GprNaming {
  specSuffix: string;
  bodySuffix: string;
  dotReplacement: string;
  /** Explicit file names by lower-cased unit name. */
  specFiles: Record<string, string>;
  bodyFiles: Record<string, string>;
}

type Token = { kind: "str" | "id" | "sym"; text: string };
type Value = string | string[];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "-" && text[i + 1] === "-") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === '"') {
      let value = "";
      i++;
      while (i < text.length) {
        if (text[i] === '"' && text[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else {
          value += text[i++];
        }
      }
      tokens.push({ kind: "str", text: value });
    } else if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < text.length && /[\w.]/.test(text[i]!)) i++;
      tokens.push({ kind: "id", text: text.slice(start, i) });
    } else if (text.startsWith(":=", i) || text.startsWith("=>", i)) {
      tokens.push({ kind: "sym", text: text.slice(i, i + 2) });
      i += 2;
    } else {
      tokens.push({ kind: "sym", text: c });
      i++;
    }
  }
  return tokens;
}

class GprParser {
  #pos = 0;
  readonly vars = new Map<string, Value>();
  readonly attrs = new Map<string, Value>();
  readonly externals: Record<string, string> = {};
  project: GprProject;

  constructor(readonly tokens: Token[], readonly env: Record<string, string>) {
    this.project = {
      name: "",
      qualifier: "",
      withs: [],
      extends: null,
      sourceDirs: ["."],
      objectDir: ".",
      execDir: "",
      mains: [],
      languages: ["Ada"],
      libraryName: null,
      libraryDir: null,
      libraryKind: null,
      adaVersion: null,
      naming: {
        specSuffix: ".ads",
        bodySuffix: ".adb",
        dotReplacement: "-",
        specFiles: {},
        bodyFiles: {},
      },
      externals: this.externals,
    };
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.#pos + offset];
  }

  next(): Token | undefined {
    return this.tokens[this.#pos++];
  }

  is(text: string, offset = 0): boolean {
    return this.peek(offset)?.text.toLowerCase() === text;
  }

  skipPast(text: string): void {
    while (this.peek() && !this.is(text)) this.next();
    this.next();
  }

  parse(): GprProject {
    while (this.peek()) {
      if (this.is("with") || this.is("limited")) {
        if (this.is("limited")) this.next();
        this.next();
        while (this.peek() && !this.is(";")) {
          const t = this.next()!;
          if (t.kind === "str") this.project.withs.push(t.text);
        }
        this.next();
        continue;
      }
      const qualifier: string[] = [];
      while (["abstract", "aggregate", "library", "configuration"].some((q) => this.is(q))) {
        qualifier.push(this.next()!.text.toLowerCase());
      }
      if (this.is("project")) {
        this.next();
        this.project.qualifier = qualifier.join(" ");
        this.project.name = this.next()?.text ?? "";
        if (this.is("extends")) {
          this.next();
          if (this.is("all")) this.next();
          this.project.extends = this.next()?.text ?? null;
        }
        this.skipPast("is");
        this.declarations("", ["end"]);
        break;
      }
      this.next();
    }
    return this.finish();
  }

  /** Declarations until one of `stops` (not consumed), with attribute names prefixed by pkg. */
  declarations(pkg: string, stops: string[]): void {
    while (this.peek() && !stops.some((s) => this.is(s))) {
      if (this.is("for")) {
        this.attribute(pkg);
      } else if (this.is("package")) {
        this.next();
        const name = this.next()?.text.toLowerCase() ?? "";
        if (this.is("renames")) {
          this.skipPast(";");
          continue;
        }
        if (this.is("extends")) {
          this.next();
          this.next();
        }
        this.skipPast("is");
        this.declarations(`${name}.`, ["end"]);
        this.skipPast(";");
      } else if (this.is("type")) {
        this.skipPast(";");
      } else if (this.is("case")) {
        this.caseConstruct(pkg);
      } else if (this.peek()?.kind === "id" && (this.is(":=", 1) || this.is(":", 1))) {
        const name = this.next()!.text.toLowerCase();
        if (this.is(":")) {
          this.next();
          this.next();
        }
        this.next(); // :=
        this.vars.set(pkg + name, this.expression());
        this.skipPast(";");
      } else {
        this.next();
      }
    }
  }

  caseConstruct(pkg: string): void {
    this.next(); // case
    const variable = this.next()?.text.toLowerCase() ?? "";
    this.skipPast("is");
    const value = this.lookup(variable, pkg);
    const current = typeof value === "string" ? value : "";
    let taken = false;
    while (this.peek() && !this.is("end")) {
      if (!this.is("when")) {
        this.next();
        continue;
      }
      this.next();
      const choices: string[] = [];
      let others = false;
      while (this.peek() && !this.is("=>")) {
        const t = this.next()!;
        if (t.kind === "str") choices.push(t.text);
        if (t.text.toLowerCase() === "others") others = true;
      }
      this.next(); // =>
      if (!taken && (choices.includes(current) || others)) {
        taken = true;
        this.declarations(pkg, ["when", "end"]);
      } else {
        this.skipBranch();
      }
    }
    this.skipPast(";"); // end case;
  }

  /** Skip a `when` branch, including nested case constructs. */
  skipBranch(): void {
    let depth = 0;
    while (this.peek()) {
      if (this.is("case")) depth++;
      if (depth === 0 && (this.is("when") || this.is("end"))) return;
      if (this.is("end") && this.is("case", 1)) depth--;
      this.next();
    }
  }

  attribute(pkg: string): void {
    this.next(); // for
    const name = this.next()?.text.toLowerCase() ?? "";
    let index = "";
    if (this.is("(")) {
      this.next();
      index = (this.next()?.text ?? "").toLowerCase();
      this.skipPast(")");
    }
    this.skipPast("use");
    const value = this.expression();
    this.skipPast(";");
    this.attrs.set(`${pkg}${name}${index ? `(${index})` : ""}`, value);
  }

  lookup(name: string, pkg: string): Value | undefined {
    return this.vars.get(pkg + name) ?? this.vars.get(name) ?? this.attrs.get(pkg + name) ??
      this.attrs.get(name);
  }

  /** A value: terms joined by `&`; strings, lists, external (...), variables. */
  expression(): Value {
    let result: Value | null = null;
    while (true) {
      const term = this.term();
      if (result === null) result = term;
      else if (Array.isArray(result)) result = result.concat(term);
      else if (Array.isArray(term)) result = [result, ...term];
      else result = result + term;
      if (!this.is("&")) break;
      this.next();
    }
    return result ?? "";
  }

  term(): Value {
    const t = this.peek();
    if (!t) return "";
    if (t.kind === "str") {
      this.next();
      return t.text;
    }
    if (t.text === "(") {
      this.next();
      const items: string[] = [];
      while (this.peek() && !this.is(")")) {
        if (this.is(",")) {
          this.next();
          continue;
        }
        const v = this.expression();
        items.push(...(Array.isArray(v) ? v : [v]));
      }
      this.next();
      return items;
    }
    if (t.kind === "id" && /^external(_as_list)?$/i.test(t.text)) {
      this.next();
      this.next(); // (
      const args: string[] = [];
      while (this.peek() && !this.is(")")) {
        const a = this.next()!;
        if (a.kind === "str") args.push(a.text);
      }
      this.next();
      const [name = "", fallback = ""] = args;
      const value = this.env[name] ?? fallback;
      this.externals[name] = value;
      return t.text.toLowerCase() === "external_as_list"
        ? value.split(args[1] ?? ",").filter(Boolean)
        : value;
    }
    if (t.kind === "id") {
      this.next();
      let name = t.text.toLowerCase();
      if (this.is("'")) {
        this.next();
        name = this.next()?.text.toLowerCase() ?? "";
        if (name === "project_dir") return ".";
      }
      const value = this.lookup(name, "") ?? this.lookup(name.split(".").pop() ?? name, "");
      return value ?? "";
    }
    this.next();
    return "";
  }

  finish(): GprProject {
    const p = this.project;
    const list = (key: string): string[] | null => {
      const v = this.attrs.get(key);
      return v === undefined ? null : Array.isArray(v) ? v : [v];
    };
    const single = (key: string): string | null => {
      const v = this.attrs.get(key);
      return v === undefined ? null : Array.isArray(v) ? v[0] ?? null : v;
    };
    p.sourceDirs = list("source_dirs") ?? p.sourceDirs;
    p.objectDir = single("object_dir") ?? p.objectDir;
    p.execDir = single("exec_dir") ?? p.objectDir;
    p.mains = list("main") ?? [];
    p.languages = list("languages") ?? p.languages;
    p.libraryName = single("library_name");
    p.libraryDir = single("library_dir");
    p.libraryKind = single("library_kind");
    p.naming.specSuffix = single("naming.spec_suffix(ada)") ??
      single("naming.specification_suffix(ada)") ??
      p.naming.specSuffix;
    p.naming.bodySuffix = single("naming.body_suffix(ada)") ??
      single("naming.implementation_suffix(ada)") ?? p.naming.bodySuffix;
    p.naming.dotReplacement = single("naming.dot_replacement") ?? p.naming.dotReplacement;
    for (const [key, value] of this.attrs) {
      const spec = /^naming\.(?:spec|specification)\((.+)\)$/.exec(key);
      const body = /^naming\.(?:body|implementation)\((.+)\)$/.exec(key);
      if (spec && typeof value === "string") p.naming.specFiles[spec[1]!] = value;
      if (body && typeof value === "string") p.naming.bodyFiles[body[1]!] = value;
    }
    return p;
  }
}

/**
 * Read a project file's text. `env` supplies scenario variables (default: their defaults).
 *
 * @example
 * ```ts
 * const p = parseGpr('project Demo is for Source_Dirs use ("src"); end Demo;');
 * p.name; // "Demo"
 * p.sourceDirs; // ["src"]
 * ```
 */
export function parseGpr(text: string, env: Record<string, string> = {}): GprProject {
  const project = new GprParser(tokenize(text), env).parse();
  const version = /-gnat(83|95|2005|05|2012|12|2022|22)\b/i.exec(text);
  if (version) {
    const year = version[1]!;
    const full = year.length === 2
      ? { "83": "83", "95": "95", "05": "2005", "12": "2012", "22": "2022" }[year] ?? year
      : year;
    project.adaVersion = `Ada${full}`;
  }
  return project;
}
