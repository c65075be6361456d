import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getUser } from '~/lib/session.server'
import { can } from '#server/modules/identity/permissions.ts'
import { projectsContract } from '#server/modules/projects/contract.ts'
import { invitationForm, invitationsContract } from '#server/modules/projects/invitations/contract.ts'

// The invite form of a freelancer's profile (decision 335): a client picks one of their open
// projects and writes a message. Only a signed-in client sees it, so a visitor's page stays public.

/** The client's open projects to invite to, or null when the reader cannot invite (a visitor, a freelancer, the freelancer themself). */
export async function invitableProjects(context: Readonly<RouterContextProvider>, freelancerId: number) {
  const user = getUser(context)
  if (!user || user.id === freelancerId || !can(user.roles, 'projects.create')) return null
  const open = await apiFor(context).call(projectsContract.myProjects, {
    query: { status: 'open', invitable: true, page: 1, pageSize: 50 },
  })
  return open.data.map((p) => ({ id: p.id, title: p.title }))
}

/** Sends the invitation; a refusal comes back as the form's errors in the reader's words. */
export async function inviteAction(
  context: Readonly<RouterContextProvider>,
  form: FormData,
  freelancerId: number,
) {
  form.set('freelancerId', String(freelancerId))
  const submission = parseWithZod(form, { schema: invitationForm })
  if (submission.status !== 'success') return data({ invite: submission.reply() }, { status: 400 })
  const { projectId, ...body } = submission.value
  try {
    await apiFor(context).call(invitationsContract.invite, { params: { projectId }, body })
  } catch (error) {
    if (error instanceof ApiCallError && (error.status === 409 || error.status === 400)) {
      const fields = typeof error.problem === 'object' ? error.problem.errors : undefined
      const key = fields?.freelancerId?.[0] ?? 'projects:invitations.cannot'
      return data({ invite: submission.reply({ formErrors: [key] }) }, { status: error.status })
    }
    throwApiError(error)
  }
  return redirect(`/profiles/freelancers/${freelancerId}?invited=${projectId}#invite`)
}
