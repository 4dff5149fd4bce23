/** Command-line options of the scripts: `--name value` strings with their defaults, for `util.parseArgs`. */
export const stringOptions = <K extends string>(
  defaults: Record<K, string>
): Record<K, { readonly type: "string"; readonly default: string }> =>
  Object.fromEntries(
    Object.entries<string>(defaults).map(([name, value]) => [name, { type: "string", default: value }])
  ) as Record<K, { readonly type: "string"; readonly default: string }>
