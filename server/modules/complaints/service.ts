import type { Caller } from '#server/api/handler.ts'
import { registerFilePolicies, requireAdmin, viewerOf } from './access.ts'
import type { ComplaintState } from './machine.ts'
import { newComplaintSchema, replySchema, type NewComplaint } from './rules.ts'
import { subjectsOf } from './subjects.ts'
import { fileComplaint, ticketFromContact } from './filing.ts'
import { myTickets, supportQueue } from './lists.ts'
import { supportReply, userReply } from './replies.ts'
import { assignTicket, auditTrail, changeTicketState, supportTicket } from './support.ts'
import { complaintRoom, decideDispute } from './disputes.ts'
import { holdMoney } from './dispute-hold.ts'
import { withForm, type ComplaintsDeps } from './tickets.ts'
import { detail } from './views.ts'

// Complaints and support tickets (issue 18 item 1): the use cases live in their own modules
// (filing, replies, lists, support, disputes); this gathers them for the routes and other modules.
export function createComplaintsService(deps: ComplaintsDeps) {
  const { db, files } = deps
  registerFilePolicies(db, files)
  return {
    requireAdmin,
    async subjects(caller: Caller) {
      return {
        data: (await subjectsOf(db, caller.userId)).map(({ kind, id, label }) => ({ kind, id, label })),
      }
    },
    mine: (caller: Caller, page: number) => myTickets(db, caller, page),
    create: (caller: Caller, input: NewComplaint) => fileComplaint(deps, caller, input),
    createForm: (caller: Caller, request: Request) =>
      withForm(files, request, newComplaintSchema, (value, upload) =>
        fileComplaint(deps, caller, value, upload),
      ),
    async get(caller: Caller, id: number) {
      return detail(deps, id, await viewerOf(db, caller.userId, id), caller.userId)
    },
    reply: (caller: Caller, id: number, body: string) => userReply(deps, caller, id, body),
    async replyForm(caller: Caller, id: number, request: Request) {
      // Strangers are refused before a byte of their upload is read.
      await viewerOf(db, caller.userId, id)
      return withForm(files, request, replySchema, (value, upload) =>
        userReply(deps, caller, id, value.body, upload),
      )
    },
    queue: (caller: Caller, query: Parameters<typeof supportQueue>[2]) => supportQueue(db, caller, query),
    adminGet: (caller: Caller, id: number) => supportTicket(deps, caller, id),
    adminReply: (caller: Caller, id: number, body: string) => supportReply(deps, caller, id, body),
    adminReplyForm(caller: Caller, id: number, request: Request) {
      requireAdmin(caller)
      return withForm(files, request, replySchema, (value, upload) =>
        supportReply(deps, caller, id, value.body, upload),
      )
    },
    assign: (caller: Caller, id: number) => assignTicket(deps, caller, id),
    changeState: (caller: Caller, id: number, to: ComplaintState, reason: string) =>
      changeTicketState(deps, caller, id, to, reason),
    decide: (caller: Caller, id: number, input: Parameters<typeof decideDispute>[3]) =>
      decideDispute(deps, caller, id, input),
    hold: (caller: Caller, id: number, installmentId: number) => holdMoney(deps, caller, id, installmentId),
    room: (caller: Caller, id: number) => complaintRoom(db, caller, id),
    audit: (caller: Caller, query: Parameters<typeof auditTrail>[2]) => auditTrail(deps, caller, query),
    fromContact: ticketFromContact,
  }
}

export type ComplaintsService = ReturnType<typeof createComplaintsService>
