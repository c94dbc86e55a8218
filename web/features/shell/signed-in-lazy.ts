/** The signed-in parts of the shell (signed-in.tsx), imported once by whichever lazy component asks first. */
export const signedIn = () => import('./signed-in.tsx');
