#!/usr/bin/env node
/**
 * The `legible` executable: the CLI on Node. SIGINT/SIGTERM interrupt the running command, which stops gracefully
 * and exits 0; a failure prints one line and exits 1.
 */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Cause, ConfigProvider, Effect, Exit, Runtime } from "effect"
import * as Config from "./Config.js"
import * as Cli from "./internal/cli.js"

const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

Cli.run(process.argv.slice(2)).pipe(
  Cli.report,
  Effect.provideService(ConfigProvider.ConfigProvider, Config.fromEnv(process.env)),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ disableErrorReporting: true, teardown })
)
