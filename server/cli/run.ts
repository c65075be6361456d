import { ConfigError } from '../config.ts'
import { DatabaseStartError } from '../db/database.ts'

/** Runs a command-line task; known failures print one line, anything else its stack. */
export async function runCli(task: () => Promise<void>) {
  try {
    await task()
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseStartError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}
