import type { Page } from '@playwright/test'
import type { useShellServer } from './shell-session'
import { settle } from './settle'

/** The steps a spec on the shell server takes again and again: open a path, press a button, find an account's id. */
export function shellSteps(shell: ReturnType<typeof useShellServer>) {
  const main = (page: Page) => page.locator('main')
  return {
    main,
    async go(page: Page, path: string) {
      const response = await page.goto(`${shell().base}${path}`)
      await settle(page)
      return response
    },
    async click(page: Page, name: string, scope = main(page)) {
      await scope.getByRole('button', { name }).first().click()
      await settle(page)
    },
    async idOf(email: string) {
      const row = await shell()
        .db.db.selectFrom('app_user')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
      return row.id
    },
  }
}
