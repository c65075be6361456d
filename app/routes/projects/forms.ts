// The project pages' forms parse with the API's own input schemas
// (server/modules/projects/schemas/): the form's text becomes the API's values there, so a field,
// its default and its rules are written once. What is left here is how the forms are laid out.

/** Rows of an installment plan a form offers; the unused ones stay blank. */
export const PLAN_ROWS = 5
