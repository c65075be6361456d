import type { Route } from './+types/transmittal'
import { Link } from 'react-router'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { useWords, wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { ButtonGroup, ButtonLink, buttonClass } from '~/components/ui/button'
import { DataTable } from '~/components/ui/data-table'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { deliverablesContract as d } from '#server/modules/projects/deliverables/contract.ts'
import { IssueFiles } from './register-ui'

// /projects/transmittal/{id}: a numbered record of what was sent, when and to whom (decision
// 318), for the contract's two parties; it downloads as a PDF. `?sent=1`: it was just sent.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const transmittal = await apiFor(context).call(d.transmittal, {
      params: { transmittalId: Number(params.transmittalId) },
    })
    const words = wordsFor(getLocale(context))
    words.date(transmittal.createdAt, 'dateTime')
    return { ...transmittal, words: words.words, sent: url.searchParams.get('sent') === '1' }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.number)
}

export default function TransmittalPage({ loaderData }: Route.ComponentProps) {
  return <Transmittal v={loaderData} />
}

function Transmittal({ v }: { v: Route.ComponentProps['loaderData'] }) {
  const { t } = useTranslation('deliverables')
  const words = useWords()
  return (
    <main id="main" className="container page">
      <h1>
        {t('pdf.title')} {v.number}
      </h1>
      {v.sent ? <Notice kind="success">{t('page.issuedMany', { number: v.number })}</Notice> : null}
      <DefinitionList
        items={[
          [t('pdf.project'), v.projectTitle],
          [t('pdf.date'), words.date(v.createdAt, 'dateTime')],
          [t('pdf.from'), v.sender.name],
          [t('pdf.to'), v.recipient.name],
        ]}
      />
      <ButtonGroup label={t('page.actions')}>
        <a className={buttonClass('primary')} href={`/projects/transmittal/${v.id}/pdf`} download>
          {t('page.downloadPdf')}
        </a>
        <ButtonLink to={`/projects/register/${v.projectId}`}>{t('page.backToRegister')}</ButtonLink>
      </ButtonGroup>
      <DataTable
        caption={t('page.sent')}
        columns={[
          { label: t('page.number') },
          { label: t('page.title') },
          { label: t('page.revision') },
          { label: t('page.status') },
          { label: t('page.note') },
          { label: t('page.files') },
        ]}
        rows={v.items.map((item) => ({
          key: item.deliverableId,
          cells: [
            <Link key="n" to={`/projects/deliverable/${item.deliverableId}`}>
              {item.number}
            </Link>,
            item.title,
            item.revision,
            t(`status.${item.status}`),
            item.note,
            <IssueFiles key="f" files={item.files} />,
          ],
        }))}
      />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
