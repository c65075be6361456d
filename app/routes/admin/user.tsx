import { data, Form, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import type { Route } from './+types/user'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { unconfirmed } from '~/lib/confirm.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { titled } from '~/lib/meta'
import { useWords, wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { Confirm } from '~/components/ui/confirm'
import { adminUsersContract as c } from '#server/modules/admin-users/contract.ts'
import { adminUserLimits } from '#server/modules/admin-users/limits.ts'
import {
  deleteSchema,
  reactivateSchema,
  resetSchema,
  superAdminSchema,
  suspendSchema,
} from '#server/modules/admin-users/rules.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { AuditTimeline, wordAudit } from './audit-ui'
import { ReasonField, RoleNames, UserStatusChip } from './user-ui'

// /admin/users/{id} (SuperAdmin only): who the account is, what it did on the platform, and what
// an admin may do to it: suspend or reactivate, mail a password reset, delete, and (for another
// account) grant or take the SuperAdmin role. Each is a plain POST
// form with an intent (works without JavaScript); a refusal the API gives (oneself, the last
// SuperAdmin, a status that changed meanwhile) is shown as a notice. Its audit history closes it.
const forms = {
  suspend: { schema: suspendSchema, call: c.suspend },
  unsuspend: { schema: reactivateSchema, call: c.unsuspend },
  reset: { schema: resetSchema, call: c.resetPassword },
  delete: { schema: deleteSchema, call: c.delete },
  // The Roles section (decision 265): one endpoint, the form's hidden `change` says which way.
  grantAdmin: { schema: superAdminSchema, call: c.superAdmin },
  takeAdmin: { schema: superAdminSchema, call: c.superAdmin },
} as const
type Intent = keyof typeof forms
type Answer = { intent: Intent; error?: Record<string, string[] | null> | null; notice?: string }

const idOf = (params: { userId?: string }) => {
  const id = Number(params.userId)
  if (!Number.isInteger(id) || id <= 0) throw new Response('Not Found', { status: 404 })
  return id
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  try {
    const user = await apiFor(context).call(c.get, { params: { userId: idOf(params) } })
    const words = wordsFor(getLocale(context))
    for (const at of [user.createdAt, user.updatedAt, user.lastActiveAt]) if (at) words.date(at, 'dateTime')
    wordAudit(words, user.audit)
    return {
      user,
      words: words.words,
      title: `${user.name} · ${getInstance(context).t('adminUsers:list.title')}`,
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const userId = idOf(params)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '') as Intent
  if (!(intent in forms)) throw new Response('Bad Request', { status: 400 })
  const { schema, call } = forms[intent]
  // Deleting and suspending act only from their confirmation step, with JavaScript or without (decision 310).
  if (unconfirmed('adminUser', intent, form))
    return data<Answer>({ intent, notice: 'actions.notConfirmed' }, { status: 400 })
  const submission = parseWithZod(form, { schema })
  if (submission.status !== 'success')
    return data<Answer>({ intent, error: submission.reply().error }, { status: 400 })
  try {
    await apiFor(context).call(call, {
      params: { userId },
      body: submission.value as z.output<typeof suspendSchema>,
    })
  } catch (error) {
    if (error instanceof ApiCallError && (error.status === 409 || error.status === 400)) {
      const body = typeof error.problem === 'object' ? error.problem : undefined
      const key = Object.values(body?.errors ?? {})[0]?.[0]
      return data<Answer>(
        { intent, notice: key?.startsWith('errors.') ? key : 'errors.status' },
        { status: error.status },
      )
    }
    throwApiError(error)
  }
  return redirectWithFlash(`/admin/users/${userId}`, {
    kind: 'success',
    message: getInstance(context).t(`adminUsers:done.${intent}`),
  })
}

export default function AdminUser({ loaderData: { user }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('adminUsers')
  const answer = actionData as Answer | undefined
  const errorOf = (intent: Intent) => (answer?.intent === intent ? answer.error?.reason?.[0] : undefined)
  const live = user.status !== 'Deleted'
  const mayLock = live && !user.lockout
  const isAdmin = user.roles.includes(Role.SuperAdmin)
  // A refusal is shown in the section of the form that was sent.
  const rolesAnswer = answer?.intent === 'grantAdmin' || answer?.intent === 'takeAdmin'
  const notice = (
    <Notice kind="error" data-testid="action-notice">
      {t(answer?.notice ?? 'errors.status', { defaultValue: t('errors.status') })}
    </Notice>
  )
  const mayChangeRoles = live && user.lockout !== 'self'
  const reasonForm = (
    intent: Intent,
    required: boolean,
    variant: 'primary' | 'secondary' | 'destructive' = 'secondary',
    change?: 'grant' | 'take',
  ) => (
    <ReasonForm
      intent={intent}
      required={required}
      variant={variant}
      change={change}
      error={errorOf(intent)}
      name={user.name}
    />
  )
  return (
    <main id="main" className="container page">
      <p>
        <Link to="/admin/users">{t('user.back')}</Link>
      </p>
      <h1>
        {user.name} <UserStatusChip status={user.status} />
      </h1>
      <UserFacts user={user} />
      {user.profilePath ? (
        <p>
          <Link to={user.profilePath}>{t('user.profile')}</Link>
        </p>
      ) : null}
      <section aria-labelledby="actions" className="ui-section">
        <h2 id="actions">{t('actions.title')}</h2>
        {answer?.notice && !rolesAnswer ? notice : null}
        {user.lockout ? <Notice kind="info">{t(`lockout.${user.lockout}`)}</Notice> : null}
        {!live ? <Notice kind="info">{t('user.deleted')}</Notice> : null}
        {mayLock && user.status !== 'Suspended' ? reasonForm('suspend', true, 'primary') : null}
        {user.status === 'Suspended' ? reasonForm('unsuspend', false, 'primary') : null}
        {live ? reasonForm('reset', false) : null}
        {mayLock ? reasonForm('delete', true, 'destructive') : null}
      </section>
      <section aria-labelledby="roles" className="ui-section" data-testid="roles-section">
        <h2 id="roles">{t('user.rolesTitle')}</h2>
        <p>
          <RoleNames roles={user.roles} />
        </p>
        {answer?.notice && rolesAnswer ? notice : null}
        {user.lockout === 'self' ? <Notice kind="info">{t('user.rolesSelf')}</Notice> : null}
        {mayChangeRoles && isAdmin ? reasonForm('takeAdmin', true, 'destructive', 'take') : null}
        {mayChangeRoles && !isAdmin && user.status === 'Active'
          ? reasonForm('grantAdmin', true, 'secondary', 'grant')
          : null}
      </section>
      <section aria-labelledby="history" className="ui-section">
        <h2 id="history">{t('user.history')}</h2>
        <AuditTimeline entries={user.audit} empty={t('user.noHistory')} />
      </section>
    </main>
  )
}

function UserFacts({ user }: { user: Route.ComponentProps['loaderData']['user'] }) {
  const { t } = useTranslation('adminUsers')
  const words = useWords()
  const when = (v: string | null) => (v ? words.date(v, 'dateTime') : t('user.never'))
  return (
    <DefinitionList
      items={[
        [t('user.email'), user.email],
        [t('list.role'), <RoleNames key="r" roles={user.roles} />],
        [t('user.company'), user.companyName],
        [t('user.phone'), user.phoneNumber],
        [t('user.emailVerified'), user.emailVerified ? t('user.yes') : t('user.no')],
        [t('user.signIn'), t(`user.providers.${user.provider}`, { defaultValue: user.provider })],
        [t('list.joined'), when(user.createdAt)],
        [t('user.updated'), when(user.updatedAt)],
        [t('list.lastActive'), when(user.lastActiveAt)],
        [t('user.projects'), String(user.counts.projects)],
        [t('user.proposals'), String(user.counts.proposals)],
        [t('user.contracts'), String(user.counts.contracts)],
      ]}
    />
  )
}

/** One action on the account, with its reason (required or not); deleting and suspending ask first, naming the account. */
function ReasonForm({
  intent,
  required,
  variant,
  change,
  error,
  name,
}: {
  intent: Intent
  required: boolean
  variant: 'primary' | 'secondary' | 'destructive'
  change?: 'grant' | 'take'
  error: string | undefined
  name: string
}) {
  const { t } = useTranslation('adminUsers')
  const reason = (
    <ReasonField
      form={intent}
      label={t(required ? 'actions.reason' : 'actions.reasonOptional')}
      required={required}
      error={error}
      maxLength={adminUserLimits.reason}
    />
  )
  if (intent === 'delete' || intent === 'suspend')
    return (
      <section
        className="ui-card form-stack"
        data-testid={`${intent}-form`}
        aria-labelledby={`${intent}-title`}
      >
        <h3 id={`${intent}-title`}>{t(`actions.${intent}.title`)}</h3>
        <p className="muted">{t(`actions.${intent}.help`)}</p>
        <Confirm
          label={t(`actions.${intent}.submit`)}
          variant={variant}
          open={!!error}
          question={t(`actions.${intent}.confirm`, { name })}
          yes={t(`actions.${intent}.yes`)}
          fields={{ intent }}
        >
          {reason}
        </Confirm>
      </section>
    )
  return (
    <Form
      method="post"
      className="ui-card form-stack"
      data-testid={`${intent}-form`}
      aria-labelledby={`${intent}-title`}
    >
      <h3 id={`${intent}-title`}>{t(`actions.${intent}.title`)}</h3>
      <p className="muted">{t(`actions.${intent}.help`)}</p>
      <input type="hidden" name="intent" value={intent} />
      {change ? <input type="hidden" name="change" value={change} /> : null}
      {reason}
      <div>
        <Button variant={variant}>{t(`actions.${intent}.submit`)}</Button>
      </div>
    </Form>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
