import { describe, expect, test } from 'vitest'
import { can, permissionForPath, requiresLogin, Role } from '../identity/permissions.ts'
import { authorReplyTransition, complaintStates, supportTargets, supportTransition } from './machine.ts'

// The pages' guards (the page guard reads routePermissions) and the ticket machine's moves
// (decisions 211 and 213): /admin is for a SuperAdmin only, /ticketSupport for every signed-in user.
describe('complaint guards and states', () => {
  test('every /admin page needs admin.area, which only a SuperAdmin has; the ticket pages need a signed-in user', () => {
    for (const path of ['/admin', '/admin/complaints', '/admin/complaints/12']) {
      expect(requiresLogin(path)).toBe(true)
      expect(permissionForPath(path)).toBe('admin.area')
    }
    expect(
      [Role.SuperAdmin, Role.Client, Role.Company, Role.Freelancer].map((r) => can([r], 'admin.area')),
    ).toEqual([true, false, false, false])
    expect(permissionForPath('/ticketSupport/addComplaints')).toBe('complaints.add')
    expect(permissionForPath('/ticketSupport/3')).toBe('complaints.viewAll')
    expect(permissionForPath('/administrator')).toBeNull()
  })

  test('support moves a ticket forward or back to work; the author only replies; nothing leaves closed', () => {
    expect(supportTargets('open')).toEqual(['in_progress', 'waiting_on_user', 'resolved'])
    expect(supportTargets('resolved')).toEqual(['in_progress', 'closed'])
    expect(supportTargets('closed')).toEqual([])
    expect(supportTransition('open', 'closed')).toBeUndefined()
    expect(authorReplyTransition('waiting_on_user')?.to).toBe('in_progress')
    expect(authorReplyTransition('resolved')?.to).toBe('in_progress')
    expect(authorReplyTransition('open')).toBeUndefined()
    expect(complaintStates.filter((s) => supportTargets(s).includes('open'))).toEqual([])
  })
})
