// The import rules of the workspace (`npm run lint`; `packages/server/test/architecture.test.ts` runs the same
// rules in the test suite). TypeScript is parsed with swc: TypeScript 7 has no JavaScript API to parse with.
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules import each other: put what both need in a module of its own.",
      from: {},
      to: { circular: true }
    },
    {
      name: "no-foreign-internals",
      severity: "error",
      comment: "Only a package's own modules use its internals; others use its declared entry points.",
      from: { path: "^(packages|tools)/([^/]+)/" },
      to: { path: "^(packages|tools)/([^/]+)/(src|dist)/internal/", pathNot: "^$1/$2/" }
    },
    {
      name: "adapters-import-only-core",
      severity: "error",
      comment: "Adapters depend on core, never on each other; only server (and tests) compose them.",
      from: { path: "^packages/(adapters-[^/]+|ocr-onnx)/src/" },
      to: { path: "^packages/(adapters-[^/]+|ocr-onnx|server|testkit)/", pathNot: "^packages/$1/" }
    },
    {
      name: "core-imports-no-package-of-ours",
      severity: "error",
      from: { path: "^packages/core/src/" },
      to: { path: "^(packages|tools)/", pathNot: "^packages/core/" }
    },
    {
      name: "codes-imports-no-package-of-ours",
      severity: "error",
      comment: "@legible/codes is self-contained: the readers of codes and e-invoices depend on no package of ours.",
      from: { path: "^packages/codes/" },
      to: { path: "^(packages|tools)/", pathNot: "^packages/codes/" }
    },
    {
      name: "console-imports-no-package-of-ours",
      severity: "error",
      comment: "The console is a client of the public HTTP API only: it imports no package of ours.",
      from: { path: "^packages/console/" },
      to: { path: "^(packages|tools)/", pathNot: "^packages/console/" }
    },
    {
      name: "bench-generator-apart-from-local-rules",
      severity: "error",
      comment:
        "The local benchmark's generator writes its own vocabulary: it must not see the extractor's rules it judges.",
      from: { path: "^packages/adapters-llm/bench/generator/" },
      to: { path: "^packages/adapters-llm/(src|dist)/internal/local/" }
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that does not resolve (a closed `./internal/*` export, a typo).",
      from: { path: "^(packages|tools)/" },
      to: { couldNotResolve: true, pathNot: "^(node:|bun:)" }
    }
  ],
  options: {
    parser: "swc",
    exclude: { path: "(^|/)(node_modules|dist|\\.tsbuild)/" },
    doNotFollow: { path: "node_modules" },
    enhancedResolveOptions: {
      conditionNames: ["@legible/source", "import", "types", "node", "default"],
      exportsFields: ["exports"],
      mainFields: ["module", "main", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"]
    }
  }
}
