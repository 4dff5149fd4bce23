/**
 * Seeds the catalog benchmark in SQL: supplier catalogs of `nombre` and `cif`, one client each — a 1M-record
 * catalog, and 100k, 10k and 89 × 10k catalogs of other clients (2M records, 4M key rows in all). Names are Spanish
 * and Latin-American company and person names built from word lists (activities, surnames, first names, places,
 * coined brand words from syllables) with legal forms; `cif` is a letter and 8 digits, unique per catalog, some
 * written with a hyphen. The normalized columns are computed in SQL from normalized word lists (the benchmark checks
 * a sample against `CatalogMatch`), with the indexes dropped during the load and rebuilt after.
 */
import { CatalogMatch } from "@legible/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const words = (text: string): ReadonlyArray<string> => text.trim().split(/\s+/)

/** Activities. */
export const ACTIVITIES = words(`Distribuciones Transportes Ferretería Construcciones Inmobiliaria Consultores
  Servicios Suministros Alimentos Comercial Industrias Talleres Laboratorios Farmacia Panadería Librería Papelería
  Carpintería Electricidad Fontanería Asesores Abogados Clínica Hoteles Restaurante Inversiones Logística Textiles
  Muebles Autos Seguros Imprenta Gráfica Agrícola Ganadera Pesquera Minera Petróleos Química Plásticos Metalúrgica
  Editorial Tecnología Sistemas Software Telecomunicaciones Energía Solar Viajes Turismo Deportes Óptica Veterinaria
  Jardinería Limpieza Seguridad Mudanzas Catering Eventos Publicidad Marketing Arquitectura Ingeniería Hostelería`)

/** Surnames. */
export const SURNAMES = words(`García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Martín
  Jiménez Ruiz Hernández Díaz Moreno Álvarez Muñoz Romero Alonso Gutiérrez Navarro Torres Domínguez Vázquez Ramos Gil
  Ramírez Serrano Blanco Suárez Molina Morales Ortega Delgado Castro Ortiz Rubio Marín Sanz Núñez Iglesias Medina
  Garrido Santos Castillo Cortés Lozano Guerrero Cano Prieto Méndez Calvo Cruz Gallego Vidal León Herrera Márquez
  Peña Cabrera Flores Campos Vega Díez Fuentes Carrasco Caballero Nieto Reyes Aguilar Pascual Herrero Santana Lorenzo
  Hidalgo Montero Ibáñez Giménez Ferrer Durán Vicente Benítez Mora Santiago Arias Vargas Carmona Crespo Román Pastor
  Soto Sáez Velasco Soler Moya Esteban Parra Bravo Gallardo Rojas Acosta Aguirre Alvarado Ávila Barrera Benavides
  Bustos Camacho Cárdenas Contreras Cuevas Espinoza Figueroa Galindo Gallegos Guzmán Ibarra Juárez Lara Luna
  Maldonado Mejía Miranda Montoya Murillo Navarrete Olivares Orozco Pacheco Padilla Palacios Paredes Peralta Quintero
  Quiroga Rivas Rivera Robles Salazar Salinas Sandoval Sepúlveda Sosa Tapia Trujillo Valdez Valencia Valenzuela Vera
  Villalobos Zamora Zúñiga Cabello Mesa Bermúdez Espinosa Ríos Solís Varela Beltrán Pineda Escobar Franco Rosales`)

/** First names. */
export const FIRST_NAMES = words(`José María Juan Ana Antonio Carmen Manuel Laura Francisco Isabel David Lucía
  Javier Marta Daniel Elena Carlos Sara Miguel Paula Rafael Cristina Pedro Raquel Pablo Beatriz Alejandro Silvia
  Fernando Rosa Luis Patricia Sergio Teresa Jorge Pilar Alberto Mónica Álvaro Andrea Diego Natalia Adrián Julia
  Enrique Irene Ramón Nuria Vicente Eva Andrés Rocío Ignacio Alicia Rubén Inés Óscar Victoria Ricardo Clara Emilio
  Sonia Joaquín Lorena Gabriel Susana Mario Ángela Tomás Marina Héctor Noelia`)

/** Places. */
export const PLACES = words(`Madrid Sevilla Valencia Barcelona Bilbao Málaga Zaragoza Murcia Granada Córdoba
  Alicante Vigo Gijón Oviedo Toledo Burgos León Salamanca Cádiz Huelva Almería Jaén Navarra Rioja Galicia Asturias
  Cantabria Aragón Levante Norte Sur Oriente Poniente Atlántico Mediterráneo Pacífico Andina Ibérica Central
  Peninsular Canarias Baleares Castilla Mancha Extremadura Monterrey Guadalajara Puebla Tijuana Mérida Cancún
  Querétaro Rosario Mendoza Cordillera Patagonia Bogotá Medellín Cali Lima Arequipa Quito Santiago Valparaíso
  Montevideo Asunción`)

/** Syllables of coined brand words (two or three of them). */
export const SYLLABLES = words(`ka lo mi ra ven tor sol mar dal zen qui bra lex tri nova gal fer vel cor tan ril
  mon sa pe du li xo ber cas dor fin gor hal jur kel lum nor ost pra rev sik tel ur vor wen yas zor ama`)

/** Legal forms as written (empty: none); the benchmark's names carry one two times in three. */
export const LEGAL = ["S.A.", "S.L.", "S.A. de C.V.", "S.R.L.", "SAS", "Ltda.", "S.L.U.", "Inc.", "", "", "", "S.A."]

/** One benchmark catalog: its id, client and size. */
export interface BenchCatalog {
  readonly id: string
  readonly clientId: string
  readonly size: number
}

const catalogId = (name: string) => `md5('bench-catalog-${name}')::uuid`

/** The catalogs measured; the 89 fillers make the table multi-tenant. */
export const MEASURED = [
  { name: "c10k", size: 10_000 },
  { name: "c100k", size: 100_000 },
  { name: "c1m", size: 1_000_000 }
] as const
const FILLERS = 89

const keyOf = (word: string) => CatalogMatch.normalize(word).key

/** A prime stride through the name pool (coprime with its size, checked). */
const STRIDE = 1_000_003

/** Seeds every catalog (sizes times `scale`); returns the measured ones by name, and the seconds spent. */
export const seed = (log: (line: string) => void, scale = 1) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const started = performance.now()
    const all = [
      ...MEASURED.map((c, i) => ({ name: c.name, size: Math.round(c.size * scale), seed: 7 + i })),
      ...Array.from({ length: FILLERS }, (_, f) => ({
        name: `filler-${f}`,
        size: Math.round(10_000 * scale),
        seed: 100 + f
      }))
    ]
    const values = all.map((c) => `('${c.name}', ${catalogId(c.name)}, ${c.size}, ${c.seed})`).join(",\n")
    yield* sql.unsafe(`CREATE UNLOGGED TABLE bench_catalogs (name text, id uuid, size int, seed int)`)
    yield* sql.unsafe(`INSERT INTO bench_catalogs VALUES ${values}`)
    yield* sql.unsafe(`INSERT INTO clients (id, name) SELECT 'bench-' || name, 'Cliente ' || name FROM bench_catalogs`)
    yield* sql.unsafe(`
      INSERT INTO catalogs (id, client_id, name, columns, created_at, records_version)
      SELECT id, 'bench-' || name, 'Proveedores ' || name, '["nombre", "cif"]'::jsonb, now(), 1 FROM bench_catalogs`)
    // Word lists as small tables (kind, position from 1, as written, normalized), joined by position.
    const lists: ReadonlyArray<readonly [string, ReadonlyArray<string>, (w: string) => string]> = [
      ["act", ACTIVITIES, keyOf],
      ["sur", SURNAMES, keyOf],
      ["fir", FIRST_NAMES, keyOf],
      ["pla", PLACES, keyOf],
      ["syl", SYLLABLES, keyOf],
      ["leg", LEGAL, (l) => (l === "" ? "" : CatalogMatch.normalize(`x ${l}`).legal)]
    ]
    const wordRows = lists.flatMap(([kind, list, norm]) =>
      list.map((w, i) => `('${kind}', ${i + 1}, '${w}', '${norm(w)}')`)
    )
    yield* sql.unsafe(`CREATE UNLOGGED TABLE bench_words (kind text, i int, d text, n text, PRIMARY KEY (kind, i))`)
    yield* sql.unsafe(`INSERT INTO bench_words VALUES ${wordRows.join(",")}`)
    const word = (alias: string, kind: string, position: string) =>
      `JOIN bench_words ${alias} ON ${alias}.kind = '${kind}' AND ${alias}.i = ${position}`
    // Candidates (15% more than needed), then the first `size` distinct names per catalog, in generation order.
    yield* sql.unsafe(`ANALYZE bench_words`)
    // One pool of distinct names (15% more candidates than the largest catalog plus its absent names).
    const candidates = Math.round(Math.max(...all.map((c) => c.size)) * 1.45)
    yield* sql.unsafe(`
      CREATE UNLOGGED TABLE bench_pool AS
      WITH h AS MATERIALIZED (
        SELECT g, hashint8extended(g, 7) & ${Number.MAX_SAFE_INTEGER} AS a,
          hashint8extended(g, 1007) & ${Number.MAX_SAFE_INTEGER} AS b
        FROM generate_series(0::bigint, ${candidates - 1}::bigint) g
      ),
      p AS (
        SELECT h.g, a % 10 AS pattern,
          1 + (a / 10) % ${ACTIVITIES.length} AS i_act, 1 + (a / 1000) % ${SURNAMES.length} AS i_s1,
          1 + (a / 1000000) % ${SURNAMES.length} AS i_s2, 1 + b % ${FIRST_NAMES.length} AS i_fir,
          1 + (b / 100) % ${PLACES.length} AS i_pla, 1 + (b / 10000) % ${SYLLABLES.length} AS y1,
          1 + (b / 1000000) % ${SYLLABLES.length} AS y2, 1 + (b / 100000000) % ${SYLLABLES.length} AS y3,
          (b / 10000000000) % 2 = 0 AS three, 1 + (b / 100000000000) % ${LEGAL.length} AS i_leg, (a / 1000000000) % 5 AS amp
        FROM h
      ),
      n AS (
        SELECT p.g, p.pattern, p.amp,
          lower(y1.d || y2.d || CASE WHEN three THEN y3.d ELSE '' END) AS coined,
          act.d AS act_d, act.n AS act_n, s1.d AS s1_d, s1.n AS s1_n, s2.d AS s2_d, s2.n AS s2_n,
          fir.d AS fir_d, fir.n AS fir_n, pla.d AS pla_d, pla.n AS pla_n,
          CASE WHEN pattern = 6 THEN '' ELSE leg.d END AS leg_d, CASE WHEN pattern = 6 THEN '' ELSE leg.n END AS leg_n
        FROM p ${word("act", "act", "p.i_act")} ${word("s1", "sur", "p.i_s1")} ${word("s2", "sur", "p.i_s2")}
          ${word("fir", "fir", "p.i_fir")} ${word("pla", "pla", "p.i_pla")} ${word("y1", "syl", "p.y1")}
          ${word("y2", "syl", "p.y2")} ${word("y3", "syl", "p.y3")} ${word("leg", "leg", "p.i_leg")}
      ),
      names AS (
        SELECT g, leg_d, leg_n,
          CASE pattern
            WHEN 0 THEN act_d || ' ' || s1_d || ' ' || s2_d
            WHEN 1 THEN act_d || ' ' || s1_d || ' ' || s2_d
            WHEN 2 THEN act_d || ' ' || s1_d || CASE WHEN amp = 0 THEN ' & ' ELSE ' y ' END || s2_d
            WHEN 3 THEN initcap(coined) || ' ' || act_d
            WHEN 4 THEN initcap(coined) || ' ' || act_d
            WHEN 5 THEN act_d || ' ' || initcap(coined)
            WHEN 6 THEN fir_d || ' ' || s1_d || ' ' || s2_d
            WHEN 7 THEN initcap(coined) || ' ' || pla_d
            WHEN 8 THEN act_d || ' ' || pla_d || ' ' || s1_d
            ELSE 'Grupo ' || initcap(coined) || ' ' || act_d END AS base,
          CASE pattern
            WHEN 0 THEN act_n || ' ' || s1_n || ' ' || s2_n
            WHEN 1 THEN act_n || ' ' || s1_n || ' ' || s2_n
            WHEN 2 THEN act_n || ' ' || s1_n || ' y ' || s2_n
            WHEN 3 THEN coined || ' ' || act_n
            WHEN 4 THEN coined || ' ' || act_n
            WHEN 5 THEN act_n || ' ' || coined
            WHEN 6 THEN fir_n || ' ' || s1_n || ' ' || s2_n
            WHEN 7 THEN coined || ' ' || pla_n
            WHEN 8 THEN act_n || ' ' || pla_n || ' ' || s1_n
            ELSE 'grupo ' || coined || ' ' || act_n END AS norm
        FROM n
      ),
      firsts AS (
        SELECT DISTINCT ON (norm) * FROM names ORDER BY norm, g
      )
      SELECT row_number() OVER (ORDER BY g) AS pos, base || CASE WHEN leg_d = '' THEN '' ELSE ' ' || leg_d END AS nombre,
        norm, leg_n AS legal
      FROM firsts`)
    const [pool] = yield* sql<{ size: number }>`SELECT count(*)::int AS size FROM bench_pool`
    const poolSize = pool?.size ?? 0
    const largest = Math.max(...all.map((c) => c.size))
    if (poolSize < largest * 1.02 || poolSize % STRIDE === 0) {
      return yield* Effect.die(new Error(`a pool of ${poolSize} names cannot hold a ${largest}-record catalog`))
    }
    // Catalog c holds pool positions 1 + ((j × STRIDE + seed × 7919) mod pool) for j < size: distinct names, a
    // different subset per catalog (the largest takes most of the pool; the rest are its absent names).
    yield* sql.unsafe(`
      CREATE UNLOGGED TABLE bench_names AS
      SELECT c.id AS catalog_id, md5(c.id::text || '-' || j)::uuid AS id, p.nombre, p.norm, p.legal,
        substr('ABCDEFGHJ', 1 + ((j * 31 + c.seed) % 9)::int, 1)
          || lpad(((j * 7919 + c.seed * 104729) % 100000000)::text, 8, '0') AS cif,
        j % 4 = 0 AS hyphen
      FROM bench_catalogs c CROSS JOIN LATERAL generate_series(0::bigint, c.size - 1) j
      JOIN bench_pool p ON p.pos = 1 + ((j * ${STRIDE} + c.seed * 7919) % ${poolSize})`)
    log(`  generated names in ${((performance.now() - started) / 1000).toFixed(1)} s`)

    // Constraints and secondary indexes are dropped for the load and rebuilt after, as the migration defined them.
    const constraints = yield* sql<{ table: string; name: string; definition: string }>`
      SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint WHERE conrelid IN ('catalog_keys'::regclass, 'catalog_records'::regclass) AND contype IN ('p', 'f')
      ORDER BY contype`
    const indexes = yield* sql<{ name: string; definition: string }>`
      SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE tablename = 'catalog_keys' AND indexname NOT LIKE '%_pkey'`
    for (const c of constraints) yield* sql.unsafe(`ALTER TABLE ${c.table} DROP CONSTRAINT ${c.name}`)
    for (const index of indexes) yield* sql.unsafe(`DROP INDEX ${index.name}`)

    yield* sql.unsafe(`
      INSERT INTO catalog_records (catalog_id, id, "values")
      SELECT catalog_id, id, jsonb_build_object('nombre', nombre,
        'cif', CASE WHEN hyphen THEN substr(cif, 1, 1) || '-' || substr(cif, 2) ELSE cif END)
      FROM bench_names ORDER BY catalog_id, id`)
    log(`  inserted records at ${((performance.now() - started) / 1000).toFixed(1)} s`)
    yield* sql.unsafe(`
      INSERT INTO catalog_keys (catalog_id, record_id, column_name, space, norm, legal, ident)
      SELECT catalog_id, id, 'nombre', md5(catalog_id::text || '/nombre')::uuid, norm, legal, NULL FROM bench_names
      UNION ALL
      SELECT catalog_id, id, 'cif', md5(catalog_id::text || '/cif')::uuid,
        CASE WHEN hyphen THEN lower(substr(cif, 1, 1)) || ' ' || substr(cif, 2) ELSE lower(cif) END, '',
        translate(cif, 'OILSBZG', '0115826')
      FROM bench_names`)
    yield* sql.unsafe(`
      UPDATE catalogs c SET record_count = n.count
      FROM (SELECT catalog_id, count(*) AS count FROM bench_names GROUP BY catalog_id) n WHERE c.id = n.catalog_id`)
    log(`  inserted key rows at ${((performance.now() - started) / 1000).toFixed(1)} s`)
    // Keys and indexes are built side by side (one pooled connection each); foreign keys come back NOT VALID:
    // the load made them true, and validating 6M rows would only slow the run.
    const builds = [
      ...constraints
        .filter((c) => c.definition.startsWith("PRIMARY"))
        .map((c) => ({ name: c.name, statement: `ALTER TABLE ${c.table} ADD CONSTRAINT ${c.name} ${c.definition}` })),
      ...indexes.map((index) => ({ name: index.name, statement: index.definition }))
    ]
    yield* Effect.forEach(
      builds,
      (build) =>
        Effect.andThen(
          rebuild(sql, build.statement),
          Effect.sync(() => log(`  built ${build.name} at ${((performance.now() - started) / 1000).toFixed(1)} s`))
        ),
      { concurrency: 3, discard: true }
    )
    for (const c of constraints.filter((c) => !c.definition.startsWith("PRIMARY"))) {
      yield* sql.unsafe(`ALTER TABLE ${c.table} ADD CONSTRAINT ${c.name} ${c.definition} NOT VALID`)
    }
    yield* sql.unsafe("VACUUM (ANALYZE) catalog_records")
    yield* sql.unsafe("VACUUM (ANALYZE) catalog_keys")
    return { catalogs: yield* measuredCatalogs, seconds: (performance.now() - started) / 1000 }
  })

/** The measured catalogs of a seeded database, by name, and `filler-0` (the warm-up catalog, not measured). */
export const measuredCatalogs = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const measured = yield* sql<{ name: string; id: string; client_id: string; size: number }>`
    SELECT b.name, b.id, c.client_id, c.record_count::int AS size FROM bench_catalogs b JOIN catalogs c ON c.id = b.id
    WHERE b.name IN ('c10k', 'c100k', 'c1m', 'filler-0')`
  return new Map(measured.map((m) => [m.name, { id: m.id, clientId: m.client_id, size: m.size }])) as ReadonlyMap<
    string,
    BenchCatalog
  >
})

// SET LOCAL: the setting must reach the pooled connection that builds the index.
const rebuild = (sql: SqlClient.SqlClient, statement: string) =>
  sql.withTransaction(Effect.andThen(sql.unsafe("SET LOCAL maintenance_work_mem = '1GB'"), sql.unsafe(statement)))

/** Names of the pool that `catalog` does not hold (compared on the normalized key), in a fixed shuffled order. */
export const absentNames = (catalog: BenchCatalog, count: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ nombre: string }>`
      SELECT p.nombre FROM bench_pool p
      WHERE NOT EXISTS (SELECT 1 FROM catalog_keys k WHERE k.space = md5(${catalog.id}::uuid::text || '/nombre')::uuid
        AND k.norm = p.norm)
      ORDER BY md5(p.pos::text || 'absent') LIMIT ${count}`
  })
