#!/usr/bin/env node
/** The `legible` executable: the CLI on Node, with SIGINT/SIGTERM interrupting the running command. */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { Cli } from "./index.js"

Cli.run(process.argv.slice(2)).pipe(
  Cli.report,
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
