import { test } from '@playwright/test'

/**
 * Whether the running Playwright project has JavaScript on: the one place a spec, a step helper or
 * a new browser context reads it, so every part of a test agrees with the project it runs in.
 */
export const jsEnabled = () => test.info().project.use.javaScriptEnabled !== false
