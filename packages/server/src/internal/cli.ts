/**
 * The `legible` command line (effect/cli). Every command reads its settings from the environment (`Config`); those
 * that touch the database open it (migrated) and close it when done. Command output goes to stdout, logs to stderr.
 */
import * as Fs from "node:fs/promises"
import { Cause, Console, Effect } from "effect"
import { Argument, CliError, Command, Flag } from "effect/cli"
import * as Config from "../Config.js"
import * as Jwt from "../Jwt.js"
import * as Layers from "../Layers.js"
import * as Operations from "../Operations.js"
import * as Serve from "../Serve.js"
import * as Quickstart from "./quickstart.js"

/** The version printed by `--version`. */
export const VERSION = "0.1.0"

const withStorage = <A, E, R>(settings: Config.Settings, effect: Effect.Effect<A, E, R>) =>
  effect.pipe(Effect.provide(Layers.stores(settings)), Effect.provide(Serve.logging(settings)))

const readText = (path: string) =>
  Effect.tryPromise({
    try: () => Fs.readFile(path, "utf8"),
    catch: (error) =>
      new Config.InvalidSettings({
        message: `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`
      })
  })

const client = Flag.String("client").pipe(Flag.withDescription("The client (organization) id"))

/** A skill file as the README's "Skill files" section describes it, in one line. */
const SKILL_EXAMPLE = JSON.stringify({
  slug: "factura",
  name: "Factura",
  instructions: "Facturas de proveedores españoles",
  fields: [
    { name: "numero", order: 1, type: "string", aliases: ["Nº factura"] },
    { name: "fecha", order: 2, type: "date" },
    { name: "total", order: 3, type: "float" },
    {
      name: "proveedor",
      order: 4,
      type: "catalog",
      aliases: ["CIF"],
      catalog: {
        catalogId: "Proveedores",
        keyColumns: ["cif"],
        outputColumns: ["nombre"],
        method: "exacta",
        threshold: 1
      }
    }
  ]
})

const SKILL_FILE_HELP = [
  "Create skills or store their next version (an existing slug gets a new version; extractions keep theirs).",
  "",
  "The file holds one skill or an array of them. A skill: slug (a-z, 0-9, -), name, instructions (optional) and",
  "fields; a field: name, order (its position in results), type (string, integer, float, date, boolean, object or",
  "catalog), and optionally isList, description, aliases (labels printed on documents), fields (the sub-fields of",
  "an object) and catalog ({catalogId: a catalog's id or name, keyColumns, outputColumns, method: exacta or",
  'aproximada, threshold: 0-1}, for catalog fields). The whole format: README.md, "Skill files".'
].join("\n")

const serve = Command.make(
  "serve",
  {
    role: Flag.Literals("role", Serve.ROLES).pipe(
      Flag.withDescription("api: HTTP only; worker: the job worker only; all: both in one process"),
      Flag.withDefault("all")
    )
  },
  Effect.fn(function* ({ role }) {
    const settings = yield* Config.load
    if (Config.isEmbedded(settings) && role !== "all") {
      yield* Effect.logWarning(
        `role ${role} on the embedded database: no other process can open it, so use --role all or PostgreSQL`
      ).pipe(Effect.provide(Serve.logging(settings)))
    }
    yield* Serve.run(settings, role)
  })
).pipe(Command.withDescription("Run the service (default role: all)"))

const migrate = Command.make(
  "migrate",
  {},
  Effect.fn(function* () {
    const settings = yield* Config.load
    yield* withStorage(settings, Effect.void)
    yield* Console.log(
      Config.isEmbedded(settings) ? `migrated ${settings.dataDir}` : "migrated the PostgreSQL database"
    )
  })
).pipe(Command.withDescription("Create or upgrade the database schema"))

const token = Command.make(
  "token",
  {
    sub: Flag.String("sub").pipe(Flag.withDescription("The user id (sub claim)")),
    client,
    name: Flag.String("name").pipe(Flag.withDescription("The user's name"), Flag.optional),
    email: Flag.String("email").pipe(Flag.withDescription("The user's email"), Flag.optional),
    role: Flag.Literals("role", ["user", "global_admin"]).pipe(
      Flag.withDescription("The role claim: user, or global_admin (acts on every client's extractions)"),
      Flag.withDefault("user")
    ),
    ttl: Flag.Int("ttl").pipe(Flag.withDescription("Seconds the token is valid"), Flag.withDefault(3600))
  },
  Effect.fn(function* (flags) {
    const settings = yield* Config.load
    if (flags.ttl < 1) return yield* new Config.InvalidSettings({ message: "--ttl must be at least 1 second" })
    const jwt = yield* Jwt.mint(
      settings,
      {
        sub: flags.sub,
        clientId: flags.client,
        name: flags.name._tag === "Some" ? flags.name.value : undefined,
        email: flags.email._tag === "Some" ? flags.email.value : undefined,
        role: flags.role
      },
      flags.ttl
    )
    yield* Console.log(jwt)
  })
).pipe(Command.withDescription("Mint an HS256 JWT with the configured secret (for local use)"))

const skillsApply = Command.make(
  "apply",
  {
    file: Argument.String("file").pipe(
      Argument.withDescription("A JSON file: one skill, or an array of them (format in the description above)")
    ),
    client
  },
  Effect.fn(function* ({ file, client }) {
    const settings = yield* Config.load
    const text = yield* readText(file)
    const skills = yield* withStorage(settings, Operations.applySkills(client, text))
    for (const skill of skills) {
      yield* Console.log(`${skill.slug}: version ${skill.version} (id ${skill.id})`)
    }
  })
).pipe(
  Command.withDescription(SKILL_FILE_HELP),
  Command.withExamples([
    {
      command: "legible skills apply factura.json --client acme",
      description: `with factura.json: ${SKILL_EXAMPLE}`
    }
  ])
)

// A command that only groups others (`legible skills apply`).
const group = <const Name extends string, const Subcommands extends ReadonlyArray<Command.Command.SubcommandEntry>>(
  name: Name,
  description: string,
  subcommands: Subcommands
) => Command.make(name).pipe(Command.withDescription(description), Command.withSubcommands(subcommands))

const skills = group("skills", "Manage skills", [skillsApply])

const catalogsImport = Command.make(
  "import",
  {
    file: Argument.String("file").pipe(Argument.withDescription("Records as CSV (header row) or JSON")),
    client,
    name: Flag.String("name").pipe(Flag.withDescription("The catalog's name (created when missing)")),
    columns: Flag.String("columns").pipe(
      Flag.withDescription("Columns of a new catalog, comma-separated (default: from the file)"),
      Flag.optional
    )
  },
  Effect.fn(function* ({ file, client, name, columns }) {
    const settings = yield* Config.load
    const text = yield* readText(file)
    const result = yield* withStorage(
      settings,
      Operations.importCatalog({
        clientId: client,
        name,
        text,
        format: Operations.formatOf(file, text),
        columns: columns._tag === "Some" ? columns.value.split(",").map((c) => c.trim()) : undefined
      })
    )
    yield* Console.log(
      `${result.created ? "created" : "updated"} catalog "${result.catalog.name}" (id ${result.catalog.id}, columns ` +
        `${result.catalog.columns.join(", ")}): ${result.imported} records imported`
    )
  })
).pipe(Command.withDescription("Import catalog records into a client's catalog"))

const catalogs = group("catalogs", "Manage catalogs", [catalogsImport])

const keysCreate = Command.make(
  "create",
  {
    client,
    user: Flag.String("user").pipe(Flag.withDescription("The id of the user the key acts as")),
    userName: Flag.String("user-name").pipe(Flag.withDescription("The user's name (default: its id)"), Flag.optional),
    email: Flag.String("email").pipe(Flag.withDescription("The user's email"), Flag.withDefault("")),
    role: Flag.Literals("role", ["user", "global_admin"]).pipe(
      Flag.withDescription("The user's role: user, or global_admin (acts on every client's extractions)"),
      Flag.withDefault("user")
    ),
    name: Flag.String("name").pipe(Flag.withDescription("The key's name (nombre)"), Flag.withDefault("cli")),
    tipo: Flag.Literals("tipo", ["live", "test"]).pipe(
      Flag.withDescription("live, or test: a sandbox key (its extractions run `local` and use no quota)"),
      Flag.withDefault("live")
    )
  },
  Effect.fn(function* (flags) {
    const settings = yield* Config.load
    const created = yield* withStorage(
      settings,
      Operations.createKey({
        user: {
          id: flags.user,
          clientId: flags.client,
          name: flags.userName._tag === "Some" ? flags.userName.value : flags.user,
          email: flags.email,
          role: flags.role
        },
        nombre: flags.name,
        tipo: flags.tipo
      })
    )
    yield* Console.log(created.key)
    yield* Console.error(`key ${created.id} (${created.tipo}) created; it is shown once and stored only as a hash`)
  })
).pipe(Command.withDescription("Create an API key (printed once)"))

const keys = group("keys", "Manage API keys", [keysCreate])

const quickstart = Command.make(
  "quickstart",
  {},
  Effect.fn(function* () {
    yield* Quickstart.run(yield* Config.load)
  })
).pipe(Command.withDescription("Start with demo data on embedded defaults and print how to try it"))

const command = group("legible", "legible: structured data from documents", [
  serve,
  migrate,
  token,
  skills,
  catalogs,
  keys,
  quickstart
])

/** Why a command failed. */
export type Failure =
  | CliError.CliError
  | Config.InvalidSettings
  | Jwt.SecretError
  | Serve.StartError
  | Quickstart.SeedError

/** Runs the command line with `args` (without the node and script paths). */
export const run = (args: ReadonlyArray<string>): Effect.Effect<void, Failure, Command.Environment> =>
  Command.runWith(command, { version: VERSION })(args)

const describe = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const { _tag, message, ...fields } = error as { _tag?: unknown; message?: unknown }
    if (typeof message === "string" && message.length > 0) return message
    if (typeof _tag === "string") return `${_tag} ${JSON.stringify(fields)}`
  }
  return String(error)
}

/**
 * Prints a failure as one line on stderr (`legible: …`) instead of a stack trace; the CLI's own parse errors are
 * already rendered, and interruption (Ctrl-C, SIGTERM) is a normal end.
 */
export const report = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.tapCause((cause) => {
      if (Cause.hasInterruptsOnly(cause)) return Effect.void
      const failure = Cause.findErrorOption(cause)
      if (failure._tag === "Some") {
        return CliError.isCliError(failure.value) ? Effect.void : Console.error(`legible: ${describe(failure.value)}`)
      }
      return Console.error(`legible: unexpected failure\n${Cause.pretty(cause)}`)
    })
  )
