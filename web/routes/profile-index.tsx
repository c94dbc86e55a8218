import { redirect } from 'react-router';

// SPEC §2: /profile is a bare path with no page of its own.
export const loader = () => redirect('/profile/dashboard');
