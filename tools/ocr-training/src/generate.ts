/**
 * One generation shard, as its own process (the training script runs one per core):
 * `node generate.ts <seed> <count> <dictionary> <out>`. Prints its counts as JSON on the last line.
 */
import * as Fs from "node:fs"
import { generate } from "./samples.ts"

const [seed, count, dictionaryPath, out] = process.argv.slice(2)
if (seed === undefined || count === undefined || dictionaryPath === undefined || out === undefined) {
  throw new Error("usage: generate.ts <seed> <count> <dictionary> <out>")
}
const dictionary = Fs.readFileSync(dictionaryPath, "utf8").replace(/\n$/, "").split("\n")
const stats = await generate({ seed: Number(seed), count: Number(count), dictionary, out })
process.stdout.write(`${JSON.stringify(stats)}\n`)
