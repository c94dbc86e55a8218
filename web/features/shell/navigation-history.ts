// The page the user came from, for SPEC §2's seller redirect ("from the home page or with no earlier page").
let previous: string | null = null;
let current: string | null = null;

export function recordNavigation(pathname: string) {
  if (pathname === current) return;
  previous = current;
  current = pathname;
}

/** The pathname before the one being left now (null on the first page of the visit). */
export const currentPath = () => current;
export const previousPath = () => previous;
