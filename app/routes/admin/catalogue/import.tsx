import { data, Form, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/import'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { postMultipart } from '~/lib/api-form.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { Button, ButtonGroup } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DataTable } from '~/components/ui/data-table'
import { Notice } from '~/components/ui/notice'
import { spreadsheetExtensions } from '#server/modules/files/rules.ts'
import { adminCatalogueContract as c, type SheetReport } from '#server/modules/catalogue/admin-contract.ts'
import { sheetColumns, sheetLimits } from '#server/modules/catalogue/admin-limits.ts'

// /admin/categories/import (SuperAdmin only): the skills sheet in two steps, each a plain form so it
// works without JavaScript (decision 247). "Check" uploads the sheet; the server keeps it and
// answers a report with every bad row by its line, importing nothing. Then "Import" (only offered
// after a clean check) or "Import only the good rows" sends the kept sheet's id, and the server
// checks it again and imports it in one transaction.
type Answer = { report?: SheetReport; fileError?: string; notice?: string }

export function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  return { title: getInstance(context).t('adminCatalog:import.title') }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const form = await request.formData()
  const { t } = getInstance(context)
  const file = form.get('file')
  try {
    if (form.get('intent') === 'check') {
      if (!(file instanceof File) || !file.size || !file.name)
        return data<Answer>({ fileError: 'errors.chooseSheet' }, { status: 400 })
      const body = new FormData()
      body.set('file', file, file.name)
      return {
        report: (await postMultipart(context, 'Admin/catalogue/skills/check', body)) as SheetReport,
      } satisfies Answer
    }
    const report = await apiFor(context).call(c.importSheet, {
      body: { sheetId: Number(form.get('sheetId')), goodRowsOnly: form.get('intent') === 'importGood' },
    })
    return redirectWithFlash('/admin/categories', {
      kind: 'success',
      message: t('adminCatalog:import.done', {
        added: report.added,
        linked: report.linked,
        skipped: report.badLines.length,
      }),
    })
  } catch (error) {
    if (
      !(error instanceof ApiCallError) ||
      (error.status !== 400 && error.status !== 409) ||
      typeof error.problem !== 'object'
    )
      throwApiError(error)
    // docs/product.md §5: another extension, or bytes that are not a sheet, is "Invalid Excel".
    if (error.code === 'invalid_excel')
      return data<Answer>({ fileError: 'errors.invalidExcel' }, { status: 400 })
    if (error.code === 'file_too_large')
      return data<Answer>({ fileError: 'errors.sheetSize' }, { status: 400 })
    if (error.status === 409)
      return data<Answer>({ notice: t('adminCatalog:import.changed') }, { status: 409 })
    return data<Answer>({ fileError: error.problem.detail }, { status: 400 })
  }
}

export default function ImportSkills({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation('adminCatalog')
  const answer = actionData as Answer | undefined
  const report = answer?.report
  const fileError = answer?.fileError
  return (
    <main id="main" className="container page">
      <p>
        <Link to="/admin/categories">{t('back')}</Link>
      </p>
      <h1>{t('import.title')}</h1>
      <p className="lead">{t('import.lead', { columns: sheetColumns.join(', '), rows: sheetLimits.rows })}</p>
      {answer?.notice ? <Notice kind="error">{answer.notice}</Notice> : null}
      {report ? <Report report={report} /> : null}
      <Card
        level={2}
        title={report ? t('import.again') : t('import.choose')}
        titleId="upload-title"
        as="section"
      >
        <Form method="post" encType="multipart/form-data" className="form-stack" data-testid="sheet-form">
          <input type="hidden" name="intent" value="check" />
          <div className="field">
            <label htmlFor="sheet-file">{t('import.file')}</label>
            <input
              id="sheet-file"
              type="file"
              name="file"
              required
              accept={spreadsheetExtensions.map((e) => `.${e}`).join(',')}
              aria-invalid={fileError ? true : undefined}
              aria-describedby={fileError ? 'sheet-file-error' : 'sheet-file-hint'}
            />
            <p className="muted small" id="sheet-file-hint">
              {t('import.hint', { kb: sheetLimits.fileKb })}
            </p>
            {fileError ? (
              <p className="field-error" id="sheet-file-error" data-testid="sheet-error">
                {t(fileError, { defaultValue: fileError })}
              </p>
            ) : null}
          </div>
          <div>
            <Button variant="primary">{t('import.check')}</Button>
          </div>
        </Form>
      </Card>
    </main>
  )
}

function Report({ report }: { report: SheetReport }) {
  const { t } = useTranslation('adminCatalog')
  const counts = {
    rows: report.rows,
    added: report.added,
    linked: report.linked,
    unchanged: report.unchanged,
  }
  const nothing = !report.added && !report.linked
  return (
    <Card
      level={2}
      title={t('import.report', { name: report.fileName })}
      titleId="report-title"
      as="section"
      data-testid="sheet-report"
    >
      {report.clean ? (
        <Notice kind="success" title={t('import.clean')}>
          {t('import.counts', counts)}
        </Notice>
      ) : (
        <Notice kind="error" title={t('import.bad', { count: report.badLines.length })}>
          {`${t('import.nothingImported')} ${t('import.counts', counts)}`}
        </Notice>
      )}
      {report.problems.length ? (
        <DataTable
          caption={t('import.problems')}
          columns={[
            { label: t('import.line'), numeric: true },
            { label: t('import.column') },
            { label: t('import.problem') },
          ]}
          rows={report.problems.map((p, n) => ({
            key: n,
            testId: 'sheet-problem',
            cells: [p.line, p.field, t(`problems.${p.code}`, { line: p.firstLine })],
          }))}
        />
      ) : null}
      {nothing ? null : (
        <Form method="post">
          <input type="hidden" name="sheetId" value={report.sheetId} />
          <ButtonGroup label={t('import.title')}>
            {report.clean ? (
              <Button variant="primary" name="intent" value="import">
                {t('import.importAll')}
              </Button>
            ) : (
              <Button name="intent" value="importGood">
                {t('import.importGood', { count: report.added + report.linked })}
              </Button>
            )}
          </ButtonGroup>
        </Form>
      )}
    </Card>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
