/**
 * Where a buyer posts a project (issue 25): the creation form asked for a project, whatever the active role (the form
 * offers the switch). A guest goes through sign-in and comes back to it (the profile's guard keeps the address).
 */
export const POST_PROJECT_PATH = '/profile/items/create?kind=project';
