// A job run every `everyMs` while the server runs: one run at a time on this instance (a run still
// going when the timer fires again is not doubled), errors logged by `run`, the timer never keeps
// the process alive, and stop() waits for the run in progress. Running on several instances at
// once must be safe in the job itself (the file sweep and the refunds' sweep are).
export function periodicJob(run: () => Promise<unknown>, everyMs: number) {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | null = null
  const sweep = () => {
    running ??= run().finally(() => (running = null))
    return running
  }
  return {
    sweep,
    start() {
      timer ??= setInterval(sweep, everyMs)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      await running
    },
  }
}
