// Favourite freelancers and shortlists of proposals (issue 41 item 4, migration 0053, decision 336).
export type FreelancerFavouriteTable = {
  user_id: number
  freelancer_id: number
  created_at: string
}
export type ProposalShortlistTable = {
  proposal_id: number
  project_id: number
  /** The project's client: the only reader of the row and its note. */
  client_id: number
  note: string | null
  created_at: string
  updated_at: string
}

export interface FavouritesTables {
  freelancer_favourite: FreelancerFavouriteTable
  proposal_shortlist: ProposalShortlistTable
}
